/**
 * The `callback <WireName>` span and the cbk.callback.duration metric of every callback, for every
 * outcome (handled, replayed, refused, declined, failed, in_flight), with the real OpenTelemetry SDK
 * and no context manager: the adapter and store spans nest under the delivery span by explicit parent.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { CallbackError } from 'crossborder-merchant-kit';
import { testKit, type TestKitOptions } from '../helpers/kit.js';
import { installOtel, idOf, parentOf, type OtelHarness } from '../helpers/otel.js';
import { DELIVERIES, ORDER_DELIVERIES, type Delivery } from './deliveries.js';

let otel: OtelHarness;
beforeEach(() => { otel = installOtel(); });
afterEach(() => otel.uninstall());

const kitWith = (d: Delivery, impl?: (input: any, ctx: any) => unknown, extra: TestKitOptions = {}) =>
  testKit({ answers: impl ? { [d.name]: impl } : {}, ...extra }).kit;

async function durationPoint(wire: string, outcome: string) {
  const points = (await otel.points()).filter((p) => p.name === 'cbk.callback.duration');
  expect(points.map((p) => p.attributes)).toEqual([{ 'cbk.callback': wire, 'cbk.outcome': outcome }]);
  expect((points[0].value as { count: number }).count).toBe(1);
}

describe.each(DELIVERIES.map((d) => [d.wire, d] as const))('%s', (wire, d) => {
  test('handled: the delivery span carries callback, outcome, status, OrderId and attempt; adapter and store spans are its children', async () => {
    const reply = await kitWith(d).handle(d.name, d.request());
    expect(reply.status).toBe(200);
    const span = otel.span(`callback ${wire}`);
    expect(span.attributes).toEqual({
      'cbk.callback': wire, 'cbk.outcome': 'handled', 'http.response.status_code': 200,
      ...(d.orderId ? { 'cbk.order_id': d.orderId, 'cbk.attempt': 1 } : {}),
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(parentOf(span)).toBeUndefined();
    const adapter = otel.span(`adapter ${d.name}`);
    expect(parentOf(adapter)).toBe(idOf(span));
    expect(adapter.attributes).toEqual({ 'cbk.callback': wire, 'cbk.result': 'ok' });
    const stores = otel.spans().filter((s) => s.name.startsWith('store '));
    if (d.orderId) expect(stores.length).toBeGreaterThan(0);
    for (const s of stores) {
      expect(parentOf(s)).toBe(idOf(span));
      expect(s.attributes['cbk.store.operation']).toBe(s.name.slice('store '.length));
    }
    await durationPoint(wire, 'handled');
  });

  test('refused: a bad request answered before the adapter', async () => {
    const reply = await kitWith(d).handle(d.name, d.refused());
    expect(reply.status).toBe(400);
    const span = otel.span(`callback ${wire}`);
    expect(span.attributes).toMatchObject({ 'cbk.outcome': 'refused', 'http.response.status_code': 400 });
    expect(span.attributes['cbk.attempt']).toBeUndefined();
    expect(otel.spans().some((s) => s.name.startsWith('adapter '))).toBe(false);
    await durationPoint(wire, 'refused');
  });

  test('declined: the adapter threw a CallbackError with a 4xx', async () => {
    const reply = await kitWith(d, () => { throw new CallbackError('Out of stock', { status: 409 }); }).handle(d.name, d.request());
    expect(reply.status).toBe(409);
    const span = otel.span(`callback ${wire}`);
    expect(span.attributes).toMatchObject({ 'cbk.outcome': 'declined', 'http.response.status_code': 409 });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(otel.span(`adapter ${d.name}`).attributes['cbk.result']).toBe('error');
    await durationPoint(wire, 'declined');
  });

  test('failed: the adapter threw; status ERROR with the error type, never the message', async () => {
    const reply = await kitWith(d, () => { throw new TypeError('card 4111111111111111 exploded'); }).handle(d.name, d.request());
    expect(reply.status).toBe(500);
    const span = otel.span(`callback ${wire}`);
    expect(span.attributes).toMatchObject({ 'cbk.outcome': 'failed', 'http.response.status_code': 500, 'error.type': 'INTERNAL_ERROR' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR });
    const adapter = otel.span(`adapter ${d.name}`);
    expect(adapter.attributes).toMatchObject({ 'cbk.result': 'error', 'error.type': 'TypeError' });
    expect(adapter.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(await otel.everything()).not.toContain('exploded');
    await durationPoint(wire, 'failed');
  });
});

describe.each(ORDER_DELIVERIES.map((d) => [d.wire, d] as const))('%s', (wire, d) => {
  test('replayed: the second identical delivery is answered from the store, the adapter does not run', async () => {
    const kit = kitWith(d);
    await kit.handle(d.name, d.request());
    const again = await kit.handle(d.name, d.request());
    expect(again.headers['idempotency-replayed']).toBe('true');
    const spans = otel.spans().filter((s) => s.name === `callback ${wire}`);
    expect(spans.map((s) => s.attributes['cbk.outcome'])).toEqual(['handled', 'replayed']);
    expect(spans[1].attributes).toMatchObject({ 'http.response.status_code': 200, 'cbk.order_id': d.orderId });
    expect(spans[1].attributes['cbk.attempt']).toBeUndefined();
    expect(otel.spans().filter((s) => s.name.startsWith('adapter '))).toHaveLength(1);
  });

  test('in_flight: 503 while another attempt holds the OrderId', async () => {
    let release!: () => void;
    const blocked = new Promise<void>((r) => { release = r; });
    const kit = kitWith(d, async () => { await blocked; return { InternalOrderId: 'A-1' }; }, { inFlightWaitMs: 20 });
    const first = kit.handle(d.name, d.request());
    const second = await kit.handle(d.name, d.request());
    release();
    await first;
    expect(second.status).toBe(503);
    const span = otel.spans().find((s) => s.name === `callback ${wire}` && s.attributes['cbk.outcome'] === 'in_flight');
    expect(span?.attributes).toMatchObject({ 'http.response.status_code': 503, 'cbk.order_id': d.orderId, 'error.type': 'IN_FLIGHT' });
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    const outcomes = (await otel.points()).filter((p) => p.name === 'cbk.callback.duration').map((p) => p.attributes['cbk.outcome']).sort();
    expect(outcomes).toContain('in_flight');
  });
});
