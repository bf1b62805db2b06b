/**
 * GetTrackingEvents (docs.global-e.com tracking-events-api.html: POST /Shipment/GetTrackingEvents, one
 * direction, ≤ 100 ids per call, 10 requests a minute, 429 beyond) and UpdateRMA (as the service's
 * cartridge sends it: POST /Return/UpdateRMA?merchantGUID=… with the merchant's payload) against a
 * recorded fake service.
 */
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure, fixture, GUID } from './setup.js';
import { rateWindow } from '../../lib/client/rate-window.js';

const ANSWER = fixture('tracking-events-response');
let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: ANSWER })); });
afterEach(() => svc.close());

describe('getTrackingEvents', () => {
  test('POST /Shipment/GetTrackingEvents?merchantGUID=… with { Type, OrderIds, TrackingNumbers, EventSinceInUTC }; the answer typed', async () => {
    const { client } = clientFor(svc);
    const events = await client.getTrackingEvents({ type: 'inbound', orderIds: ['GE1234'], trackingNumbers: ['GE98765'], since: new Date(Date.UTC(2014, 7, 8, 17, 13, 7)) });
    const r = svc.received[0];
    expect([r.method, r.path, Object.fromEntries(r.query), r.json]).toEqual(['POST', '/Shipment/GetTrackingEvents', { merchantGUID: GUID }, fixture('tracking-events-request')]);
    expect(events.SuccessfulTrackingNumbers?.[0]).toMatchObject({ TrackingNumber: 'GE98765', Type: 'inbound', ShipperName: 'DHL' });
    expect(events.FailedTrackingNumbers).toEqual(ANSWER.FailedTrackingNumbers);
  });

  test('250 order ids: three calls of 100, 100 and 50, answers merged', async () => {
    const { client } = clientFor(svc);
    const ids = Array.from({ length: 250 }, (_, i) => `GE${i}`);
    const events = await client.getTrackingEvents({ type: 'outbound', orderIds: ids });
    expect(svc.received.map((r) => r.json.OrderIds.length)).toEqual([100, 100, 50]);
    expect(svc.received.every((r) => r.json.Type === 'outbound' && !('TrackingNumbers' in r.json))).toBe(true);
    expect(events.SuccessfulTrackingNumbers).toHaveLength(3);
  });

  test('the 11th call within a minute is refused RATE_LIMITED with retryAfterMs, nothing sent (retry.maxDelayMs is 50 ms here)', async () => {
    const { client } = clientFor(svc);
    for (let i = 0; i < 10; i++) await client.getTrackingEvents({ type: 'inbound', orderIds: [`GE${i}`] });
    const err = await failure(client.getTrackingEvents({ type: 'inbound', orderIds: ['GE10'] }));
    expect(err).toMatchObject({ code: 'RATE_LIMITED', operation: 'getTrackingEvents', attempts: 0, retryable: true });
    expect(err.retryAfterMs).toBeGreaterThan(50);
    expect(svc.count()).toBe(10);
  });

  test('a 429 with Retry-After is retried (a read); a 429 beyond the retries is the error with its Retry-After', async () => {
    let n = 0;
    svc.answer(() => (n++ === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 200, body: ANSWER }));
    const { client } = clientFor(svc);
    await client.getTrackingEvents({ type: 'inbound', trackingNumbers: ['GE98765'] });
    expect(svc.count()).toBe(2);
    svc.answer(() => ({ status: 429, headers: { 'retry-after': '60' }, body: { Code: 'TOO_MANY_REQUESTS', Error: 'Rate limit' } }));
    expect(await failure(client.getTrackingEvents({ type: 'inbound', trackingNumbers: ['GE98765'] }))).toMatchObject({ status: 429, retryable: true, retryAfterMs: 60_000 });
  });

  test.each([
    [{ type: 'both', orderIds: ['GE1'] }], [{ type: 'inbound' }], [{ type: 'inbound', orderIds: [''] }], [{ type: 'inbound', orderIds: ['x'.repeat(101)] }],
    [{ type: 'inbound', orderIds: ['GE1'], since: 'x'.length }], [{ type: 'inbound', orderId: ['GE1'] }],
  ])('%j is INVALID_ARGUMENT and sends nothing', async (request) => {
    const { client } = clientFor(svc);
    expect(await failure(client.getTrackingEvents(request as never))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(svc.count()).toBe(0);
  });

  test('the window: 10 in a minute, the 11th waits for the oldest to leave it', () => {
    const w = rateWindow(10, 60_000);
    for (let i = 0; i < 10; i++) expect(w.take(1000 + i)).toBe(0);
    expect(w.take(30_000)).toBe(31_000);
    expect(w.take(61_000)).toBe(0);
    expect(w.take(61_000)).toBe(1);
  });
});

describe('updateRma', () => {
  const UPDATE = { OrderId: 'GE1234', RMANumber: 'RMA-1', Status: 'Received' };

  test('POST /Return/UpdateRMA?merchantGUID=… with the payload as given; Success: true is the answer', async () => {
    svc.answer(() => ({ status: 200, body: { Success: true } }));
    const { client } = clientFor(svc);
    expect(await client.updateRma(UPDATE)).toEqual({ Success: true });
    expect([svc.received[0].method, svc.received[0].path, Object.fromEntries(svc.received[0].query), svc.received[0].json]).toEqual(['POST', '/Return/UpdateRMA', { merchantGUID: GUID }, UPDATE]);
  });

  test('read as the cartridge reads it: Success false, or a Code/Error, is the service\'s error; neither is INVALID_RESPONSE', async () => {
    const { client } = clientFor(svc);
    svc.answer(() => ({ status: 200, body: { Success: false, Message: 'RMA not found' } }));
    expect(await failure(client.updateRma(UPDATE))).toMatchObject({ code: 'SERVICE_ERROR', description: 'RMA not found' });
    svc.answer(() => ({ status: 200, body: { Code: 'B001', Error: 'Order not found' } }));
    expect(await failure(client.updateRma(UPDATE))).toMatchObject({ code: 'B001' });
    svc.answer(() => ({ status: 200, body: { Something: 1 } }));
    expect(await failure(client.updateRma(UPDATE))).toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  test('a write of unknown effect: a 503 is not sent again; no OrderId is INVALID_ARGUMENT', async () => {
    svc.answer(() => ({ status: 503 }));
    const { client } = clientFor(svc);
    expect(await failure(client.updateRma(UPDATE))).toMatchObject({ status: 503 });
    expect(svc.count()).toBe(1);
    expect(await failure(client.updateRma({ RMANumber: 'x' } as never))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
