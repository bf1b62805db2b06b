/**
 * Requested documents reach the merchant's webhook once they are due (the order's own tracking
 * numbers when the request names none), and never after the sandbox closed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createSandbox, SEED_TRACKING_NUMBERS as TN, type Sandbox } from '../../../lib/tools/sandbox/index.js';
import { startStubMerchant } from '../../helpers/stub-merchant.js';

const ORDER = 'GE100000002SB';
let stub: Awaited<ReturnType<typeof startStubMerchant>>;
let received: Array<{ url: string; body: Record<string, unknown> }>;

beforeEach(async () => {
  stub = await startStubMerchant();
  received = [];
  stub.server.on('request', (req) => {
    let text = '';
    req.on('data', (c) => { text += c; });
    req.on('end', () => { received.push({ url: req.url ?? '', body: JSON.parse(text) }); });
  });
});
afterEach(async () => { await stub.close(); });

async function requestDocuments(sandbox: Sandbox, trackingNumbers: string[]): Promise<void> {
  const url = sandbox.url!;
  const r = await fetch(`${url}/additional-required-documents`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
    body: JSON.stringify({ Orders: [{ OrderId: ORDER, TrackingNumbers: trackingNumbers }] }),
  });
  expect(r.status).toBe(200);
}

test('a request naming no tracking number delivers the documents of the order\'s own parcels, once', async () => {
  const sandbox = createSandbox({ port: 0, merchantUrl: stub.merchantUrl, documentsDelayMs: 0, console: false });
  await sandbox.listen();
  try {
    await requestDocuments(sandbox, []);
    for (let i = 0; i < 200 && !sandbox.orders.get(ORDER)!.documentsDelivered; i++) await sleep(10);
    expect(sandbox.orders.get(ORDER)!.documentsDelivered).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0].url).toBe('/crossborder/SendAdditionalRequiredDocumentsToMerchant');
    const docs = received[0].body.Documents as Array<{ TrackingNumber: string }>;
    expect(docs.map((d) => d.TrackingNumber)).toEqual([TN.okHighValue]);
    expect(sandbox.orders.get(ORDER)!.timeline.map((t) => t.event)).toEqual(expect.arrayContaining(['documents-requested', 'documents-delivered']));
  } finally {
    await sandbox.close();
  }
});

test('close cancels a delivery not yet due: the merchant never receives it and the order stays undelivered', async () => {
  const sandbox = createSandbox({ port: 0, merchantUrl: stub.merchantUrl, documentsDelayMs: 150, console: false });
  await sandbox.listen();
  await requestDocuments(sandbox, [TN.okHighValue]);
  await sandbox.close();
  await sleep(450); // well past the delay: a delivery that was not cancelled would have been sent by now
  expect(received).toEqual([]);
  const order = sandbox.orders.get(ORDER)!;
  expect(order.documentsDelivered).toBe(false);
  expect(order.timeline.map((t) => t.event)).not.toEqual(expect.arrayContaining(['documents-delivered']));
  expect(order.timeline.map((t) => t.event)).not.toEqual(expect.arrayContaining(['documents-refused']));
  expect(sandbox.log.list().some((e) => e.kind === 'receiveAdditionalRequiredDocuments')).toBe(false);
});
