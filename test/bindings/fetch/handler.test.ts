/**
 * What is particular to the fetch binding (the shared behaviour runs over it through BINDINGS):
 * the body streamed up to the limit and no further, the client address from `info` only, basePath,
 * JSON 404s, options checked at construction.
 */
import { createFetchHandler, type FetchHandlerOptions } from 'crossborder-merchant-kit/fetch';
import { MERCHANT_GUID, order } from '../../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../../helpers/recording.js';

const base = (extra: Partial<FetchHandlerOptions> = {}): FetchHandlerOptions =>
  ({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: false, ...extra }) as FetchHandlerOptions;

const post = (url: string, body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, duplex: 'half' } as RequestInit);

/** A body stream of `chunks` chunks of `size` bytes that counts what was pulled from it. */
function countingStream(chunks: number, size: number) {
  const seen = { pulled: 0, cancelled: false };
  let left = chunks;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (left-- <= 0) return controller.close();
      seen.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
    cancel() { seen.cancelled = true; },
  });
  return { stream, seen };
}

describe('createFetchHandler', () => {
  test('a delivery under basePath is answered like on the other bindings, with the info address as remoteAddress', async () => {
    const adapter = recordingAdapter();
    const handle = createFetchHandler(base({ adapter, basePath: '/crossborder' }));
    const res = await handle(post('https://shop.example/crossborder/sendordertomerchant/?x=1', JSON.stringify(order())), { remoteAddress: '203.0.113.9' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toMatchObject({ Success: true });
    expect(adapter.calls[0].context.remoteAddress).toBe('203.0.113.9');
  });

  test('unmatched paths, HEAD and paths outside basePath get a JSON 404; the adapter is not called', async () => {
    const adapter = recordingAdapter();
    const handle = createFetchHandler(base({ adapter, basePath: '/crossborder' }));
    for (const req of [
      post('https://shop.example/SendOrderToMerchant', '{}'),
      post('https://shop.example/crossborderX/SendOrderToMerchant', '{}'),
      post('https://shop.example/elsewhereXY/SendOrderToMerchant', '{}'), // as long as basePath
      new Request('https://shop.example/crossborder/SendOrderToMerchant', { method: 'HEAD' }),
      new Request('https://shop.example/crossborder/nothing'),
    ]) {
      const res = await handle(req);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      if (req.method !== 'HEAD') expect(await res.json()).toMatchObject({ Success: false, ErrorCode: 'NOT_FOUND' });
    }
    expect(adapter.calls).toHaveLength(0);
  });

  test('a body over the limit is refused 413 after reading no more than the limit (plus one chunk), and the stream is cancelled', async () => {
    const handle = createFetchHandler(base({ bodyLimit: 10_000 }));
    const { stream, seen } = countingStream(1_000, 1_000); // 1 MB on offer
    const res = await handle(post('https://shop.example/SendOrderToMerchant', stream));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ Success: false, ErrorCode: 'PAYLOAD_TOO_LARGE' });
    expect(seen.pulled).toBeLessThanOrEqual(10_000 + 2 * 1_000);
    expect(seen.cancelled).toBe(true);
  });

  test('a declared content-length over the limit is refused before any byte is read', async () => {
    const handle = createFetchHandler(base({ bodyLimit: 10_000 }));
    const { stream, seen } = countingStream(1_000, 1_000);
    const res = await handle(post('https://shop.example/SendOrderToMerchant', stream, { 'content-length': '1000000' }));
    expect(res.status).toBe(413);
    expect(seen.pulled).toBeLessThanOrEqual(1_000); // at most what the stream queued on creation
  });

  test('a body at the limit is read whole', async () => {
    const text = JSON.stringify(order());
    const handle = createFetchHandler(base({ bodyLimit: Buffer.byteLength(text) }));
    expect((await handle(post('https://shop.example/SendOrderToMerchant', text))).status).toBe(200);
    const under = createFetchHandler(base({ bodyLimit: Buffer.byteLength(text) - 1 }));
    expect((await under(post('https://shop.example/SendOrderToMerchant', text))).status).toBe(413);
  });

  test('without info.remoteAddress the address is unknown: an IP allow-list refuses, X-Forwarded-For is not believed', async () => {
    const adapter = recordingAdapter();
    const handle = createFetchHandler(base({ adapter, auth: { ipAllowList: ['203.0.113.0/24'] } }));
    const res = await handle(post('https://shop.example/SendOrderToMerchant', JSON.stringify(order()), { 'x-forwarded-for': '203.0.113.5' }));
    expect(res.status).toBe(403);
    expect(adapter.calls).toHaveLength(0);
  });

  test('a body stream that fails is a 400, not a crash', async () => {
    const handle = createFetchHandler(base());
    const stream = new ReadableStream<Uint8Array>({ pull(c) { c.error(new Error('socket reset')); } });
    const res = await handle(post('https://shop.example/SendOrderToMerchant', stream));
    expect(res.status).toBe(400);
  });

  test('a Request whose body the host already read: 500 and one error line naming the cause', async () => {
    const logger = captureLogger();
    const handle = createFetchHandler(base({ logger }));
    const req = post('https://shop.example/SendOrderToMerchant', JSON.stringify(order()));
    await req.text();
    const res = await handle(req);
    expect(res.status).toBe(500);
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({ msg: 'callback binding failed', obj: expect.objectContaining({ err: expect.objectContaining({ message: expect.stringMatching(/read before/) }) }) }),
    ]);
  });

  test.each([['/crossborder/'], ['crossborder'], [7]])('basePath %p is refused at construction with ERR_CBK_OPTION_INVALID', (basePath) => {
    expect(() => createFetchHandler(base({ basePath } as never))).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
  });

  test('a misspelt kit option is refused at construction with did-you-mean', () => {
    expect(() => createFetchHandler({ ...base(), bodyLimt: 5 } as never)).toThrow(/bodyLimit/);
  });
});
