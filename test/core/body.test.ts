/**
 * The one body type of the core (lib/core/body.ts): what a binding hands to kit.handle — raw bytes,
 * a value the host app parsed (with its size), or a body it could not read (with the refusal) — and
 * the one size check, in the core (stages/parse.ts).
 */
import { createCallbackKit } from 'crossborder-merchant-kit';
import { PipelineFailure } from '../../lib/shared/errors.js';
import { payloadTooLarge } from '../../lib/core/body-limit.js';
import { bodyOf, parsedBody, rawBody, unreadableBody } from '../../lib/core/body.js';
import { MERCHANT_GUID, order } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const LIMIT = 4096;

function kit() {
  const adapter = recordingAdapter();
  const log = captureLogger();
  const k = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter, logger: log, bodyLimit: LIMIT });
  const request = { method: 'POST', path: '/SendOrderToMerchant', headers: { 'content-type': 'application/json' }, query: {} };
  return { k, adapter, log, request };
}

test('a raw body within the limit is parsed; one byte over it is refused 413 with Connection: close, the adapter not called', async () => {
  const t = kit();
  const text = JSON.stringify(order());
  expect((await t.k.handle('sendOrderToMerchant', t.request, rawBody(Buffer.from(text)))).status).toBe(200);
  const over = JSON.stringify(order({ OrderId: 'GE2', CustomerComments: 'x'.repeat(LIMIT - text.length + 1) }));
  expect(Buffer.byteLength(over)).toBeGreaterThan(LIMIT);
  const res = await t.k.handle('sendOrderToMerchant', t.request, rawBody(over));
  expect(res.status).toBe(413);
  expect(res.headers.connection).toBe('close');
  expect(res.body).toMatchObject({ Success: false, ErrorCode: 'PAYLOAD_TOO_LARGE' });
  expect(t.adapter.calls).toHaveLength(1);
});

test('a parsed body is checked by the size the binding gives (over the limit: 413); without a size it is not', async () => {
  const t = kit();
  expect((await t.k.handle('sendOrderToMerchant', t.request, parsedBody(order(), LIMIT + 1))).status).toBe(413);
  expect((await t.k.handle('sendOrderToMerchant', t.request, parsedBody(order(), LIMIT))).status).toBe(200);
  expect((await t.k.handle('sendOrderToMerchant', t.request, parsedBody(order({ OrderId: 'GE3' }), undefined))).status).toBe(200);
  expect(t.adapter.calls).toHaveLength(2);
});

test('an unreadable body is answered with its refusal, logged as one, after authentication; the adapter not called', async () => {
  const t = kit();
  const aborted = new PipelineFailure('INVALID_REQUEST', 'client aborted the request');
  const res = await t.k.handle('sendOrderToMerchant', t.request, unreadableBody(aborted));
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INVALID_REQUEST' });
  expect(t.log.lines.find((l) => l.msg === 'callback refused')?.obj.reason).toBe('client aborted the request');
  expect((await t.k.handle('sendOrderToMerchant', t.request, unreadableBody(payloadTooLarge(LIMIT)))).status).toBe(413);
  expect(t.adapter.calls).toHaveLength(0);
});

test('without a body argument, request.body is taken as it always was: bytes or text raw, any other value parsed', async () => {
  expect(bodyOf(undefined)).toBeUndefined();
  expect(bodyOf('{}')).toEqual({ kind: 'raw', bytes: '{}' });
  expect(bodyOf(Buffer.from('{}'))).toMatchObject({ kind: 'raw' });
  expect(bodyOf({ a: 1 })).toEqual({ kind: 'parsed', value: { a: 1 }, size: undefined });
  const t = kit();
  expect((await t.k.handle('sendOrderToMerchant', { ...t.request, body: JSON.stringify(order()) })).status).toBe(200);
  expect((await t.k.handle('sendOrderToMerchant', { ...t.request, body: order({ OrderId: 'GE4' }) })).status).toBe(200);
});
