/**
 * The newer callbacks (UpdateOrderShippingInfo, the refund notification, the return) through the same
 * hostile suites as the first five: auth bypasses (MerchantGUID spellings, credentials), exactly-once
 * (redelivery, concurrent duplicates, a failed attempt), and a cancellation and a refund of the same
 * order arriving together: serialised on the OrderId's lock, both answered. The fuzz suite
 * (fuzz.test.ts) runs both callbacks too.
 */
import { type CallbackName } from 'crossborder-merchant-kit';
import { sleep, testKit } from '../helpers/kit.js';
import { MERCHANT_GUID, OTHER_GUID, statusUpdate } from '../helpers/orders.js';
import { parcelDispatch, refundNotice, rmaInfo, shippingInfo } from '../helpers/shipping-refund.js';

const NEW: ReadonlyArray<[CallbackName, (o?: Record<string, unknown>) => Record<string, unknown>]> = [
  ['updateOrderShippingInfo', shippingInfo],
  ['notifyOrderRefunded', refundNotice],
  ['receiveRmaInfo', rmaInfo],
  ['receiveParcelDispatch', parcelDispatch],
];
const PASSWORD = 'correct horse battery staple';
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

describe.each(NEW)('%s: auth bypasses', (callback, build) => {
  test.each<[string, unknown]>([
    ['missing', undefined], ['empty', ''], ['another merchant\'s', OTHER_GUID], ['one character short', MERCHANT_GUID.slice(0, -1)],
    ['one character more', `${MERCHANT_GUID}0`], ['padded', ` ${MERCHANT_GUID} `], ['with a BOM', `\ufeff${MERCHANT_GUID}`],
    ['without dashes', MERCHANT_GUID.replace(/-/g, '')], ['a prefix', MERCHANT_GUID.slice(0, 18)], ['an array', [MERCHANT_GUID]],
    ['an object', { value: MERCHANT_GUID }], ['a number', 7], ['null', null],
  ])('MerchantGUID %s: refused, the adapter never called, the GUID never echoed', async (_what, guid) => {
    const t = testKit();
    const payload = build({ OrderId: 'GE-AUTH-1' });
    if (guid === undefined) delete payload.MerchantGUID; else payload.MerchantGUID = guid;
    const res = await t.deliver(callback, payload);
    expect(res.status).toBe(401);
    expect(t.adapter.calls).toHaveLength(0);
    expect(JSON.stringify(res.body)).not.toContain(MERCHANT_GUID);
    expect(t.log.text()).not.toContain(MERCHANT_GUID);
  });

  test('an envelope whose MerchantGUID disagrees with the order\'s is refused', async () => {
    const t = testKit();
    const res = await t.deliver(callback, { order: build({ OrderId: 'GE-AUTH-2' }), MerchantGUID: OTHER_GUID });
    expect(res.status).toBe(401);
    expect(t.adapter.calls).toHaveLength(0);
  });

  test.each<[string, Record<string, string>]>([
    ['no credentials', {}], ['a wrong password', { authorization: basic('service', 'wrong') }], ['a wrong user', { authorization: basic('admin', PASSWORD) }],
    ['a Bearer token', { authorization: `Bearer ${PASSWORD}` }], ['a malformed header', { authorization: 'Basic %%%' }],
    ['the password with a trailing space', { authorization: basic('service', `${PASSWORD} `) }],
  ])('Basic auth with %s: 401, the adapter never called', async (_what, headers) => {
    const t = testKit({ auth: { basic: { users: { service: PASSWORD } } } });
    const res = await t.deliver(callback, build({ OrderId: 'GE-AUTH-3' }), headers);
    expect(res.status).toBe(401);
    expect(t.adapter.calls).toHaveLength(0);
    const ok = await t.deliver(callback, build({ OrderId: 'GE-AUTH-3' }), { authorization: basic('service', PASSWORD) });
    expect(ok.status).toBe(200);
    expect(t.adapter.calls).toHaveLength(1);
  });
});

describe.each(NEW)('%s: exactly once', (callback, build) => {
  test('a redelivery gets the stored reply; the adapter ran once', async () => {
    let n = 0;
    const t = testKit({ answers: { [callback]: () => ({ InternalOrderId: `INT-${++n}` }) } });
    const first = await t.deliver(callback, build({ OrderId: 'GE-EO-1' }));
    const again = await t.deliver(callback, build({ OrderId: 'GE-EO-1' }));
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(t.calls(callback)).toHaveLength(1);
  });

  test('20 concurrent identical deliveries: one adapter call, identical replies', async () => {
    let n = 0;
    const t = testKit({ answers: { [callback]: async () => { await sleep(30); return { InternalOrderId: `INT-${++n}` }; } } });
    const replies = await Promise.all(Array.from({ length: 20 }, () => t.deliver(callback, build({ OrderId: 'GE-EO-2' }))));
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(t.calls(callback)).toHaveLength(1);
  });

  test('a failed attempt is not stored: the redelivery runs the adapter again and succeeds', async () => {
    let n = 0;
    const t = testKit({ answers: { [callback]: () => { if (++n === 1) throw new Error('database down'); return { InternalOrderId: 'INT-1' }; } } });
    const first = await t.deliver(callback, build({ OrderId: 'GE-EO-3' }));
    const again = await t.deliver(callback, build({ OrderId: 'GE-EO-3' }));
    expect(first.status).toBe(500);
    expect(again.status).toBe(200);
    expect(t.calls(callback)).toHaveLength(2);
  });
});

test('a cancellation and a refund of the same order arriving together are serialised, and both answered', async () => {
  const running: string[] = [];
  let overlap = false;
  const slow = (name: string) => async () => {
    if (running.length > 0) overlap = true;
    running.push(name);
    await sleep(60);
    running.splice(running.indexOf(name), 1);
    return { InternalOrderId: 'INT-9' };
  };
  const t = testKit({ answers: { updateOrderStatus: slow('cancel'), notifyOrderRefunded: slow('refund') } });
  const [cancel, refund] = await Promise.all([
    t.deliver('updateOrderStatus', statusUpdate('canceled', { OrderId: 'GE-SER-1' })),
    t.deliver('notifyOrderRefunded', refundNotice({ OrderId: 'GE-SER-1' })),
  ]);
  expect([cancel.status, refund.status]).toEqual([200, 200]);
  expect([(cancel.body as { Success?: unknown }).Success, (refund.body as { Success?: unknown }).Success]).toEqual([true, true]);
  expect(t.calls('updateOrderStatus')).toHaveLength(1);
  expect(t.calls('notifyOrderRefunded')).toHaveLength(1);
  expect(overlap).toBe(false);
});

test('a return is one delivery per OrderId + RMANumber: 20 concurrent redeliveries that differ elsewhere run the adapter once; another RMANumber runs it again', async () => {
  const t = testKit({ answers: { receiveRmaInfo: async () => { await sleep(30); return { InternalOrderId: 'INT-R' }; } } });
  const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => t.deliver('receiveRmaInfo', rmaInfo({ OrderId: 'GE-RMA-1', CreatedBy: `agent ${i}`, RMANumber: i % 2 ? 555 : '555' }))));
  expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200]));
  expect(t.calls('receiveRmaInfo')).toHaveLength(1);
  await t.deliver('receiveRmaInfo', rmaInfo({ OrderId: 'GE-RMA-1', RMANumber: '556' }));
  expect(t.calls('receiveRmaInfo').map((c) => String(c.input.RMANumber))).toEqual(expect.arrayContaining(['556']));
  expect(t.calls('receiveRmaInfo')).toHaveLength(2);
});
