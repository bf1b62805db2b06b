/**
 * The adapter as a newcomer writes it: a misspelt method name fails at construction with a
 * did-you-mean (own and class-prototype methods), and an unknown field of a result is dropped
 * from the reply with a warning naming the closest known field.
 */
import request from 'supertest';
import { createCallbackKit, KitError } from 'crossborder-merchant-kit';
import { BINDINGS } from '../helpers/bindings.js';
import { cartInfo, MERCHANT_GUID, order } from '../helpers/orders.js';
import { captureLogger } from '../helpers/recording.js';

const base = { sendOrderToMerchant: () => ({}), updateOrderStatus: () => undefined };
const build = (adapter: object) => () => createCallbackKit({ merchantGuid: MERCHANT_GUID, logger: false, adapter: adapter as never });

function kitError(fn: () => unknown): KitError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(KitError);
    return err as KitError;
  }
  throw new Error('no KitError thrown');
}

describe('misspelt adapter methods fail at construction', () => {
  test.each([
    ['a transposition', 'performOrderPaymnet', 'performOrderPayment'],
    ['the spec spelling', 'GetCheckoutCartInfo', 'getCheckoutCartInfo'],
    ['a missing letter', 'receiveAdditionalRequiredDocument', 'receiveAdditionalRequiredDocuments'],
  ])('%s on an object adapter (%s)', (_label, typo, meant) => {
    const err = kitError(build({ ...base, [typo]: () => ({}) }));
    expect(err.code).toBe('ERR_CBK_OPTION_UNKNOWN');
    expect(err.message).toContain(`method ${typo}`);
    expect(err.message).toContain(`did you mean "${meant}"`);
  });

  test('a typo of a required callback names it rather than only saying it is missing', () => {
    const err = kitError(build({ sendOrderToMerchant: () => ({}), updateOrderStatuss: () => undefined }));
    expect(err.code).toBe('ERR_CBK_OPTION_UNKNOWN');
    expect(err.message).toContain('did you mean "updateOrderStatus"');
  });

  test('on a class adapter, the prototype methods (and inherited ones) are checked', () => {
    class Base { performOrderPaymnet() { return {}; } }
    class Shop extends Base {
      sendOrderToMerchant() { return {}; }
      updateOrderStatus() { return undefined; }
    }
    const err = kitError(build(new Shop()));
    expect(err.message).toContain('did you mean "performOrderPayment"');
  });

  test('helper methods that are not near an unimplemented callback are left alone', () => {
    class Shop {
      private readonly db = { orders: new Map() };
      sendOrderToMerchant() { return {}; }
      updateOrderStatus() { return undefined; }
      sendOrderToMerchantLater() { return this.db; }
      formatAddress() { return ''; }
    }
    const kit = build(new Shop())();
    expect(kit.routes.map((r) => r.callback)).toEqual(['sendOrderToMerchant', 'updateOrderStatus']);
  });

  test('a class adapter mounts its prototype callbacks', () => {
    class Shop {
      sendOrderToMerchant() { return {}; }
      updateOrderStatus() { return undefined; }
      performOrderPayment() { return {}; }
    }
    expect(build(new Shop())().routes.map((r) => r.callback)).toEqual(['sendOrderToMerchant', 'updateOrderStatus', 'performOrderPayment']);
  });
});

describe.each(BINDINGS)('%s: unknown result fields', (_name, mount) => {
  test('of a ResponseInfo are dropped from the reply, with one warning naming the closest field', async () => {
    const logger = captureLogger();
    const app = mount({
      merchantGuid: MERCHANT_GUID,
      logger,
      adapter: { sendOrderToMerchant: () => ({ InternalOrderID: 'A-1', OrderId: 'M-1' }), updateOrderStatus: () => undefined } as never,
    });
    for (const id of ['UF-1', 'UF-2']) {
      const res = await request(app).post('/cb/SendOrderToMerchant').send(order({ OrderId: id }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ Success: true, OrderId: 'M-1' });
    }
    const warnings = logger.lines.filter((l) => l.level === 'warn' && l.obj.key === '/InternalOrderID');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].obj.suggestion).toBe('/InternalOrderId');
    expect(warnings[0].msg).toContain('did you mean InternalOrderId? (dropped');
  });

  test('of a cart are flagged but sent (real carts carry fields the spec does not show)', async () => {
    const logger = captureLogger();
    const app = mount({
      merchantGuid: MERCHANT_GUID,
      logger,
      adapter: { ...base, getCheckoutCartInfo: () => cartInfo({ curencyCode: 'EUR' }) } as never,
    });
    const res = await request(app).get('/cb/GetCheckoutCartInfo?merchantCartToken=c-1');
    expect(res.status).toBe(200);
    expect(res.body.curencyCode).toBe('EUR');
    expect(logger.lines.find((l) => l.obj.key === '/curencyCode')?.obj.suggestion).toBe('/currencyCode');
  });
});
