/**
 * What a cart product (a CheckoutCartInfo `productsList` entry) says about the two values an order
 * needs, held to the interface (issue 34 item 6, docs/compatibility.md row R3-6): its quantity is
 * `OrderedQuantity`, its price `SalePrice` (else `OriginalSalePrice`, the price the specification does
 * not mark optional for cart info). Used by the kit's reply check (core/cart-reply-check.ts), the
 * checker's cart-info checks and the sandbox, which orders what the cart says.
 */

/** The interface's quantity field of a cart product. */
export const QUANTITY_FIELD = 'OrderedQuantity';
/** The interface's price fields of a cart product, in the order they are read. */
export const PRICE_FIELDS = ['SalePrice', 'OriginalSalePrice'] as const;
/** How the interface's fields are named in a message: `OrderedQuantity`, `SalePrice (or OriginalSalePrice)`. */
export const PRICE_NAME = `${PRICE_FIELDS[0]} (or ${PRICE_FIELDS.slice(1).join(', ')})`;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The interface fields a cart product lacks (absent, or not a finite number; a quantity must be > 0). */
export function missingCartFields(product: unknown): string[] {
  const p = (product !== null && typeof product === 'object' ? product : {}) as Record<string, unknown>;
  const out: string[] = [];
  if (!isNumber(p[QUANTITY_FIELD]) || (p[QUANTITY_FIELD] as number) <= 0) out.push(QUANTITY_FIELD);
  if (!PRICE_FIELDS.some((f) => isNumber(p[f]) && (p[f] as number) >= 0)) out.push(PRICE_NAME);
  return out;
}
