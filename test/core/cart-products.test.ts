/**
 * Issue 34 item 6 (docs/compatibility.md row R3-6): a cart answered with guessed product names
 * (`{ ProductCode, Name, Quantity: 2, Price: "19.90" }`, built in a helper function where TypeScript's
 * excess-property check does not reach) is held to the interface: through every binding the kit's
 * reply check warns once per shape, naming the interface fields the products lack and the keys it does
 * not know (never a value), and sends the reply as it is.
 */
import request from 'supertest';
import type { CartInfoResult } from 'crossborder-merchant-kit';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const CART = '/cb/GetCheckoutCartInfo?merchantCartToken=c-1';
/** As a new user writes it: the product built apart from the reply, so `tsc` accepts the guessed keys. */
function guessedProduct(code: string) {
  const product = { ProductCode: code, Name: 'Tee', Quantity: 2, Price: '19.90' };
  return product;
}
const guessedCart = (): CartInfoResult => ({ productsList: [guessedProduct('TEE-1')] });
const warnings = (logger: ReturnType<typeof captureLogger>) => logger.lines.filter((l) => l.level === 'warn' && /reply:/.test(l.msg ?? ''));

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('a guessed product: one warning naming OrderedQuantity, SalePrice and the unknown keys; the reply is sent as is', async () => {
    const logger = captureLogger();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ getCheckoutCartInfo: guessedCart }), logger });
    const res = await request(app).get(CART);
    expect(res.status).toBe(200);
    expect(res.body.productsList).toEqual([guessedProduct('TEE-1')]);
    await request(app).get(CART).expect(200);
    const [warning, ...more] = warnings(logger);
    expect(more).toEqual([]); // once per shape
    expect(warning.obj).toMatchObject({ missing: ['OrderedQuantity', 'SalePrice (or OriginalSalePrice)'], unknownKeys: ['Price', 'Quantity'], products: 1 });
    expect(warning.msg).toContain('a product lacks OrderedQuantity, SalePrice (or OriginalSalePrice)');
    expect(JSON.stringify(warning)).not.toContain('19.90');
  });

  test('a new shape warns again; a product with the interface fields does not warn at all', async () => {
    const logger = captureLogger();
    let reply: CartInfoResult = guessedCart();
    const app = mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ getCheckoutCartInfo: () => reply }), logger });
    await request(app).get(CART).expect(200);
    reply = { productsList: [{ ProductCode: 'TEE-1', OrderedQuantity: 2, Price: 19.9 } as never] };
    await request(app).get(CART).expect(200);
    reply = { productsList: [{ ProductCode: 'TEE-1', OrderedQuantity: 2, OriginalSalePrice: 19.9 }] };
    await request(app).get(CART).expect(200);
    expect(warnings(logger).map((w) => [w.obj.missing, w.obj.unknownKeys])).toEqual([
      [['OrderedQuantity', 'SalePrice (or OriginalSalePrice)'], ['Price', 'Quantity']],
      [['SalePrice (or OriginalSalePrice)'], ['Price']],
    ]);
  });
});
