/**
 * Every documented product field is known (issue 46, item 6): the cart product (CheckoutCartInfo's
 * productsList, schemas/callbacks/cart-product) and the order's product (SendOrderToMerchant's
 * Products, schemas/callbacks/product) name every field the service's documentation tables print
 * (test/fixtures/real-world-4/gedocs-product-fields.json) and every key the products of the four rounds'
 * fixtures carry — `IsBlockedForGlobalE` of the documented sample cart reply among them — so a cart reply
 * built from them is sent without a warning about keys "the interface does not name", through every
 * binding; a key no source names is still warned about.
 */
import fs from 'node:fs';
import request from 'supertest';
import { unknownKeys } from '../../lib/validation/known-keys.js';
import { BINDINGS } from '../helpers/bindings.js';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';
import { fixture } from '../fixtures/index.js';

const CART_PRODUCT = 'callbacks/cart-product.schema.json';
const ORDER_PRODUCT = 'callbacks/product.schema.json';
const ROUNDS = ['real-world', 'real-world-2', 'real-world-3', 'real-world-4'];

/** Every JSON body of the four rounds' fixtures, by file (a recorded request's body). */
function bodies(): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const dir of ROUNDS) {
    for (const name of fs.readdirSync(new URL(`../fixtures/${dir}/`, import.meta.url)).filter((n) => n.endsWith('.json')).sort()) {
      const raw = fixture(`${dir}/${name}`);
      const body = raw?._request ? raw.body : raw;
      if (body !== null && typeof body === 'object' && !Array.isArray(body)) out.push([`${dir}/${name}`, body]);
    }
  }
  return out;
}

/** The cart replies (a productsList) and the orders (a SendOrderToMerchant) among them. */
const cartReplies = () => bodies().filter(([, b]) => Array.isArray(b.productsList) && b.productsList.length > 0);
const orders = () => bodies().filter(([file, b]) => /sendordertomerchant-(?!response)/i.test(file) && Array.isArray(b.Products));

/** Unknown keys of each product, at any depth (Brand, Categories, VATRateType, … included), as `file#/[i]/…/key`. */
function unknownIn(file: string, products: unknown[], schema: string): string[] {
  return products.flatMap((p, i) => unknownKeys(schema, p).map((u) => `${file}#/[${i}]${u.at}/${u.key}`));
}

describe('the schemas name every documented product field', () => {
  const tables = fixture('real-world-4/gedocs-product-fields.json') as Record<string, { fields?: string[] }>;

  test.each([
    ['ProductsList', CART_PRODUCT],
    ['Product', CART_PRODUCT],
    ['Merchant.Product', ORDER_PRODUCT],
  ])('the docs table %s: every field is a property of %s', (table, schema) => {
    const fields = tables[table].fields!;
    expect(fields.length).toBeGreaterThan(10);
    const product = Object.fromEntries(fields.map((f) => [f, null]));
    expect(unknownKeys(schema, product).map((u) => u.key)).toEqual([]);
  });

  test('IsBlockedForGlobalE (docs "ProductsList", the documented sample cart reply) is a cart product field', () => {
    expect(unknownKeys(CART_PRODUCT, { IsBlockedForGlobalE: false })).toEqual([]);
  });

  test('every product of every cart reply in the four rounds: no key the cart product does not name', () => {
    const replies = cartReplies();
    expect(replies.map(([f]) => f)).toEqual(expect.arrayContaining([
      'real-world-2/solutiongem-GetCheckoutCartInfo-response-1.json', 'real-world/workarea-checkoutcartinfo-reply-promo.json',
    ]));
    expect(replies.flatMap(([f, b]) => unknownIn(f, b.productsList as unknown[], CART_PRODUCT))).toEqual([]);
  });

  test('every product of every order in the four rounds: no key the order product does not name (DiscountedPriceExcDutiesAndTaxes included)', () => {
    const found = orders();
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(found.flatMap(([f, b]) => unknownIn(f, b.Products as unknown[], ORDER_PRODUCT))).toEqual([]);
  });

  test('the walk still finds a key no source names (the checks above can fail)', () => {
    expect(unknownKeys(CART_PRODUCT, { IsBlockedForGE: false }).map((u) => u.key)).toEqual(['IsBlockedForGE']);
    expect(unknownKeys(ORDER_PRODUCT, { DiscountedPriceExcDuties: 0 }).map((u) => u.key)).toEqual(['DiscountedPriceExcDuties']);
  });
});

const CART = '/cb/GetCheckoutCartInfo?merchantCartToken=cart-1';
/** The lines about product keys the interface does not name: the reply check's warning, or the reply tidying's line of a key under productsList. */
const unknownKeyLines = (log: ReturnType<typeof captureLogger>) => log.lines.filter((l) => /does not name/.test(l.msg ?? '')
  && (/products have keys/.test(l.msg ?? '') || String((l.obj as { key?: unknown } | undefined)?.key ?? '').startsWith('/productsList')));

describe.each(BINDINGS)('%s: a cart reply with documented product fields', (_name, mount) => {
  test.each(cartReplies().map(([file]) => file))('%s: answered 200, no line about product keys the interface does not name', async (file) => {
    const body = cartReplies().find(([f]) => f === file)![1];
    const log = captureLogger();
    const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter({ getCheckoutCartInfo: () => structuredClone(body) }), logger: log })).get(CART);
    expect(res.status).toBe(200);
    expect(unknownKeyLines(log)).toEqual([]);
  });

  test('IsBlockedForGlobalE is sent as given, without a warning; an undocumented key beside it is warned about', async () => {
    const product = { ProductCode: 'SKU-1', CartItemId: '1', Name: 'Shirt', OrderedQuantity: 1, SalePrice: 10, IsBlockedForGlobalE: true };
    const log = captureLogger();
    const app = mount({
      merchantGuid: MERCHANT_GUID, logger: log,
      adapter: recordingAdapter({ getCheckoutCartInfo: () => ({ productsList: [product] }) }),
    });
    const res = await request(app).get(CART);
    expect(res.status).toBe(200);
    expect(res.body.productsList[0].IsBlockedForGlobalE).toBe(true);
    expect(unknownKeyLines(log)).toEqual([]);
    const other = captureLogger();
    await request(mount({
      merchantGuid: MERCHANT_GUID, logger: other,
      adapter: recordingAdapter({ getCheckoutCartInfo: () => ({ productsList: [{ ...product, IsBlockedForGE: true }] }) }),
    })).get(CART).expect(200);
    const warned = unknownKeyLines(other).filter((l) => l.level === 'warn');
    expect(warned).toHaveLength(1);
    expect(warned[0].obj).toMatchObject({ unknownKeys: ['IsBlockedForGE'] });
  });
});
