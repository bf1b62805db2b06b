/**
 * The order lines the sandbox (and the checker) build from a merchant's cart reply (issue 34 item 6): what the
 * cart says, and where each value came from. Quantity: `OrderedQuantity`, else a `Quantity` key
 * (not an interface field), else 1; price: `SalePrice`, `OriginalSalePrice`, else a `Price` key (not an
 * interface field), else 10. A value given as numeric text is read as its number. Each product's note
 * names the fields read and every default used, for the scenario log.
 */
import type { Json, OrderLineInput } from './payloads.js';
import { PRICE_FIELDS, QUANTITY_FIELD } from '../../validation/cart-product.js';

const DEFAULT_QUANTITY = 1;
const DEFAULT_PRICE = 10;

/** The first of `fields` holding a usable number (a JSON number, or numeric text), with where it was. */
function read(p: Json, fields: readonly string[], ok: (n: number) => boolean): { field: string; value: number; text: boolean } | undefined {
  for (const field of fields) {
    const v = p[field];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
    if (Number.isFinite(n) && ok(n)) return { field, value: n, text: typeof v === 'string' };
  }
  return undefined;
}

function describe(what: string, got: ReturnType<typeof read>, interfaceFields: readonly string[], fallback: number): string {
  if (!got) return `${what} ${fallback} by default (no ${interfaceFields.join(' or ')})`;
  const foreign = interfaceFields.includes(got.field) ? '' : `, not an interface field: the service reads ${interfaceFields.join(' or ')}`;
  return `${what} ${got.value} from ${got.field}${got.text ? ' (text)' : ''}${foreign}`;
}

/** The lines of a cart's products (those with a ProductCode), and one note per line. */
export function cartLines(products: readonly Json[]): { lines: OrderLineInput[]; notes: string[] } {
  const lines: OrderLineInput[] = [];
  const notes: string[] = [];
  products.filter((p) => typeof p.ProductCode === 'string').forEach((p, i) => {
    const quantity = read(p, [QUANTITY_FIELD, 'Quantity'], (n) => n > 0);
    const price = read(p, [...PRICE_FIELDS, 'Price'], (n) => n >= 0);
    lines.push({
      sku: p.ProductCode as string, quantity: quantity?.value ?? DEFAULT_QUANTITY, price: price?.value ?? DEFAULT_PRICE,
      cartItemId: typeof p.CartItemId === 'string' ? p.CartItemId : `sbx-ci-${i + 1}`,
      ...(typeof p.Name === 'string' ? { name: p.Name } : {}),
    });
    notes.push(`${p.ProductCode as string}: ${describe('quantity', quantity, [QUANTITY_FIELD], DEFAULT_QUANTITY)}; ${describe('price', price, PRICE_FIELDS, DEFAULT_PRICE)}`);
  });
  return { lines, notes };
}
