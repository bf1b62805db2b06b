/**
 * Issue 34 item 2 over every binding (docs/compatibility.md row R3-2, docs/auth.md#merchantguid): the
 * MerchantGUID may arrive in the payload, in a `MerchantGUID` request header or in a `MerchantGUID`
 * query parameter (names in any case, value compared as before). Required (in one of those places) on
 * SendOrderToMerchant, UpdateOrderStatus, PerformOrderPayment and the cart-info POST; on the documents
 * webhook, UpdateOrderShippingInfo and NotifyOrderRefunded a delivery without it passes only when an
 * auth strategy configured for that callback authenticated it. Fail closed: no credential → 401, one
 * test per callback; two different GUIDs in two places → 401.
 */
import request from 'supertest';
import { createCallbackKit, type CallbackKitOptions, type CallbackName } from 'crossborder-merchant-kit';
import { CALLBACK_ENTRIES } from '../../lib/core/registry.js';
import { CALLBACK_BUILDERS } from '../../lib/testing/builders.js';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID, order, OTHER_GUID } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';
import { refundNotice } from '../helpers/shipping-refund.js';
import { fixture } from '../fixtures/index.js';

type Json = Record<string, unknown>;
const withoutGuid = (body: Json): Json => {
  const { MerchantGUID: _gone, ...rest } = body;
  return rest;
};

/**
 * The callbacks whose MerchantGUID may be missing when an auth strategy authenticated the delivery (what
 * the service documents: docs/auth.md#merchantguid); every other callback requires it. A callback whose
 * registry entry disagrees fails below.
 */
const GUID_OPTIONAL: readonly CallbackName[] = ['receiveAdditionalRequiredDocuments', 'updateOrderShippingInfo', 'notifyOrderRefunded'];

/** [callback, path, body without a MerchantGUID, required by the specification]: every callback of the registry, its body from its builder. */
const CALLBACKS: Array<[CallbackName, string, () => Json, boolean]> = CALLBACK_ENTRIES.map((e) => [
  e.name,
  e.result === 'cartInfo' ? `/cb${e.defaultPath}?merchantCartToken=cart-7f3a` : `/cb${e.defaultPath}`,
  () => withoutGuid(CALLBACK_BUILDERS[e.name]() as Json),
  !GUID_OPTIONAL.includes(e.name),
]);

test('the registry requires the MerchantGUID exactly where the specification does', () => {
  expect(CALLBACK_ENTRIES.filter((e) => e.merchantGuid === 'optional').map((e) => e.name)).toEqual(GUID_OPTIONAL);
});

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;
const SECRET = { name: 'X-Callback-Secret', value: 's3cr3t-value-for-tests' };

describe.each(BINDINGS)('%s', (_name, mount) => {
  const app = (extra: Partial<CallbackKitOptions> = {}) => {
    const adapter = recordingAdapter();
    return { adapter, server: mount({ merchantGuid: MERCHANT_GUID, adapter, ...extra } as CallbackKitOptions) };
  };

  describe.each(CALLBACKS)('%s', (callback, path, body, required) => {
    test('no credential at all (no GUID anywhere, no auth strategy): 401, adapter not called', async () => {
      const { adapter, server } = app();
      const res = await request(server).post(path).send(body());
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ Success: false, ErrorCode: 'UNAUTHORIZED' });
      expect(adapter.calls).toHaveLength(0);
    });

    test.each([['MerchantGUID'], ['merchantguid'], ['MERCHANTGUID']])('the GUID in a %s header only: accepted', async (header) => {
      const { adapter, server } = app();
      const res = await request(server).post(path).set(header, MERCHANT_GUID.toUpperCase()).send(body());
      expect(res.status).toBe(200);
      expect(adapter.calls.map((c) => c.method)).toEqual([callback]);
    });

    test.each([['MerchantGUID'], ['merchantGUID'], ['merchantguid']])('the GUID in a %s query parameter only: accepted', async (param) => {
      const { adapter, server } = app();
      const res = await request(server).post(withQuery(path, `${param}=${MERCHANT_GUID}`)).send(body());
      expect(res.status).toBe(200);
      expect(adapter.calls).toHaveLength(1);
    });

    test.each([
      ['payload and header', (r: request.Test) => r.set('MerchantGUID', OTHER_GUID), (b: Json) => ({ ...b, MerchantGUID: MERCHANT_GUID }), ''],
      ['header and query', (r: request.Test) => r.set('MerchantGUID', MERCHANT_GUID), (b: Json) => b, `MerchantGUID=${OTHER_GUID}`],
      ['payload and query', (r: request.Test) => r, (b: Json) => ({ ...b, MerchantGUID: OTHER_GUID }), `merchantGUID=${MERCHANT_GUID}`],
    ])('two different GUIDs (%s), both configured: 401', async (_where, withHeader, withBody, query) => {
      const { adapter, server } = app({ merchantGuid: [MERCHANT_GUID, OTHER_GUID] });
      const res = await withHeader(request(server).post(query ? withQuery(path, query) : path)).send(withBody(body()));
      expect(res.status).toBe(401);
      expect(adapter.calls).toHaveLength(0);
    });

    test('a wrong GUID in the header beside the right one in the payload: 401', async () => {
      const { adapter, server } = app();
      const res = await request(server).post(path).set('MerchantGUID', OTHER_GUID).send({ ...body(), MerchantGUID: MERCHANT_GUID });
      expect(res.status).toBe(401);
      expect(adapter.calls).toHaveLength(0);
    });

    test(`no GUID, but an auth strategy configured for it authenticated the delivery: ${required ? '401 (the specification requires the GUID)' : 'accepted'}`, async () => {
      const { adapter, server } = app({ auth: { perCallback: { [callback]: { header: SECRET } } } } as Partial<CallbackKitOptions>);
      const res = await request(server).post(path).set(SECRET.name, SECRET.value).send(body());
      expect(res.status).toBe(required ? 401 : 200);
      expect(adapter.calls).toHaveLength(required ? 0 : 1);
      // The strategy itself still decides: without its header, 401 either way.
      expect((await request(server).post(path).send(body())).status).toBe(401);
    });
  });

  test('finding 7: the documents page\'s example with auth.perCallback...header set to the MerchantGUID header, and that header sent: accepted', async () => {
    const { adapter, server } = app({
      auth: { perCallback: { receiveAdditionalRequiredDocuments: { header: { name: 'MerchantGUID', value: MERCHANT_GUID } } } },
    } as Partial<CallbackKitOptions>);
    const page = fixture('real-world-3/gedocs-sendadditionalrequireddocuments-request.json');
    const res = await request(server).post('/cb/SendAdditionalRequiredDocumentsToMerchant').set('MerchantGUID', MERCHANT_GUID).send(page);
    expect({ status: res.status, Success: res.body.Success }).toEqual({ status: 200, Success: true });
    expect(adapter.calls[0].input.OrderId).toBe('Sample order id');
  });

  test('GET cart info: a GUID in the query or header is checked (wrong → 401), none is not required, and it never reaches the adapter\'s params', async () => {
    const { adapter, server } = app();
    const path = '/cb/GetCheckoutCartInfo?merchantCartToken=cart-7f3a';
    expect((await request(server).get(withQuery(path, `merchantGUID=${OTHER_GUID}`))).status).toBe(401);
    expect((await request(server).get(path).set('MerchantGUID', OTHER_GUID))).toHaveProperty('status', 401);
    expect((await request(server).get(withQuery(path, `merchantGUID=${MERCHANT_GUID}`))).status).toBe(200);
    expect((await request(server).get(path)).status).toBe(200);
    expect(adapter.calls).toHaveLength(2);
    expect(adapter.calls[0].input.params).toEqual({ merchantCartToken: 'cart-7f3a' });
  });

  test('the same GUID in the payload, the header and the query: accepted once', async () => {
    const { adapter, server } = app();
    const res = await request(server).post(`/cb/SendOrderToMerchant?merchantGUID=${MERCHANT_GUID.toUpperCase()}`).set('MerchantGUID', MERCHANT_GUID).send(order());
    expect(res.status).toBe(200);
    expect(adapter.calls).toHaveLength(1);
  });
});

describe('where a refusal came from (the log line\'s reason; the reply never says)', () => {
  const setup = () => {
    const logger = captureLogger();
    const adapter = recordingAdapter();
    const kit = createCallbackKit({ merchantGuid: [MERCHANT_GUID, OTHER_GUID], adapter, logger });
    const deliver = (callback: 'sendOrderToMerchant' | 'notifyOrderRefunded', body: Json, extra: { headers?: Json; query?: Json } = {}) => kit.handle(callback, {
      method: 'POST', path: '/', headers: { 'content-type': 'application/json', ...extra.headers } as never, query: (extra.query ?? {}) as never,
      body: Buffer.from(JSON.stringify(body)),
    });
    const reason = () => logger.lines.filter((l) => l.msg === 'callback refused').map((l) => l.obj.reason).pop();
    return { adapter, deliver, reason };
  };

  test.each([
    ['the top level and the header', { headers: { merchantguid: OTHER_GUID } }, order()],
    ['the header and the query', { headers: { MerchantGUID: MERCHANT_GUID }, query: { merchantGUID: OTHER_GUID } }, withoutGuid(order())],
    ['the top level and the query', { query: { MerchantGuid: OTHER_GUID } }, order()],
  ])('two GUIDs: "differs between %s"', async (where, extra, body) => {
    const { deliver, reason } = setup();
    expect((await deliver('sendOrderToMerchant', body, extra)).status).toBe(401);
    expect(reason()).toBe(`MerchantGUID differs between ${where}`);
  });

  test('none, on a callback that may go without it but has no strategy: the reason says so', async () => {
    const { deliver, reason } = setup();
    expect((await deliver('notifyOrderRefunded', withoutGuid(refundNotice()))).status).toBe(401);
    expect(reason()).toBe('MerchantGUID missing, and no auth strategy is configured for this callback');
  });

  test('a repeated parameter or header: each value is a candidate (the same GUID twice passes, two different ones do not)', async () => {
    const { adapter, deliver, reason } = setup();
    const body = withoutGuid(order());
    expect((await deliver('sendOrderToMerchant', body, { query: { merchantGUID: [MERCHANT_GUID, MERCHANT_GUID] } })).status).toBe(200);
    expect((await deliver('sendOrderToMerchant', { ...body, OrderId: 'GE-2' }, { query: { merchantGUID: [MERCHANT_GUID, OTHER_GUID] } })).status).toBe(401);
    expect(reason()).toBe('MerchantGUID differs between the query and the query');
    expect((await deliver('sendOrderToMerchant', { ...body, OrderId: 'GE-3' }, { headers: { merchantguid: [OTHER_GUID, OTHER_GUID] } })).status).toBe(200);
    expect(adapter.calls).toHaveLength(2);
  });

  test('a parameter present without a value is no candidate', async () => {
    const { adapter, deliver } = setup();
    expect((await deliver('sendOrderToMerchant', order(), { query: { merchantGUID: undefined } })).status).toBe(200);
    expect((await deliver('sendOrderToMerchant', withoutGuid(order({ OrderId: 'GE-4' })), { query: { merchantGUID: undefined } })).status).toBe(401);
    expect(adapter.calls).toHaveLength(1);
  });
});
