/** An adapter result that cannot be serialised is a merchant bug: 500, logged as such, never a 200. */
import request from 'supertest';
import { BINDINGS } from '../helpers/bindings.js';
import { cartInfo, MERCHANT_GUID, order } from '../helpers/orders.js';
import { captureLogger } from '../helpers/recording.js';

describe.each(BINDINGS)('%s: unserialisable adapter results', (_name, mount) => {
  const cases: Array<[string, () => Record<string, unknown>]> = [
    ['a cycle', () => { const r: Record<string, unknown> = { InternalOrderId: 'A-1' }; r.self = r; return r; }],
    ['a BigInt', () => ({ InternalOrderId: 'A-1', Extra: BigInt(7) })],
  ];
  test.each(cases)('%s → 500 INTERNAL_ERROR and a summary line saying 500', async (_label, make) => {
    const logger = captureLogger();
    const app = mount({
      merchantGuid: MERCHANT_GUID,
      logger,
      adapter: { sendOrderToMerchant: () => make(), updateOrderStatus: () => undefined },
    });
    const res = await request(app).post('/cb/SendOrderToMerchant').send(order({ OrderId: `SER-${_label}` }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ Success: false, Message: 'Internal error', ErrorCode: 'INTERNAL_ERROR' });
    expect(logger.summaries().map((l) => l.obj.status)).toEqual([500]);
    expect(logger.text()).toContain('not JSON-serialisable');
  });

  test('card fields an adapter returns are dropped from the reply, at any depth', async () => {
    const card = { CardNumber: '4111111111111111', CVVNumber: '737', Kept: 'yes' };
    const app = mount({
      merchantGuid: MERCHANT_GUID,
      logger: false,
      adapter: {
        sendOrderToMerchant: () => ({ InternalOrderId: 'A-2', ...card }),
        updateOrderStatus: () => undefined,
        getCheckoutCartInfo: (): any => cartInfo({ productsList: [{ ...(cartInfo().productsList as object[])[0], Echo: card }] }),
      },
    });
    const res = await request(app).post('/cb/SendOrderToMerchant').send(order({ OrderId: 'SER-card' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true, InternalOrderId: 'A-2' });
    const cart = await request(app).get('/cb/GetCheckoutCartInfo?merchantCartToken=c-1');
    expect(cart.status).toBe(200);
    expect(cart.text).not.toContain('4111111111111111');
    expect(cart.body.productsList[0].Echo).toEqual({ Kept: 'yes' });
  });
});
