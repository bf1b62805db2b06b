/**
 * The cart reply held to the interface (issue 34 item 6, docs/compatibility.md row R3-6): a
 * CheckoutCartInfo product is read by the service through its interface fields, so a product built with
 * guessed names (`Quantity`, `Price`) passes every type check and still orders the wrong thing. Each
 * shape of gap — the interface fields the products lack (validation/cart-product.ts) and the keys of
 * products the interface does not name — is warned about once per kit, naming fields and keys only
 * (never values); the reply is sent as it is.
 */
import { didYouMean } from '../shared/did-you-mean.js';
import { missingCartFields } from '../validation/cart-product.js';
import type { UnknownKey } from '../validation/known-keys.js';
import type { Who } from './stages/types.js';

/** Where the products' unknown keys are (known-keys.ts writes array indexes as `[]`). */
export const PRODUCT_AT = '/productsList/[]';
/** How many shapes are remembered; past it nothing more is reported. */
const MAX_SHAPES = 256;

export type CartReplyCheck = (state: Who, body: Record<string, unknown>, unknown: readonly UnknownKey[]) => void;

export function createCartReplyCheck(): CartReplyCheck {
  const warned = new Set<string>();
  return (state, body, unknown) => {
    const products = Array.isArray(body.productsList) ? body.productsList : [];
    const missing = [...new Set(products.flatMap(missingCartFields))];
    const keys = unknown.filter((u) => u.at === PRODUCT_AT);
    if (missing.length === 0 && keys.length === 0) return;
    const names = [...new Set(keys.map((u) => u.key))].sort();
    const shape = `${missing.join(',')}\n${names.join(',')}`;
    if (warned.has(shape) || warned.size >= MAX_SHAPES) return;
    warned.add(shape);
    const suggestions: Record<string, string> = {};
    for (const u of keys) {
      const guess = didYouMean(u.key, u.known);
      if (guess) suggestions[u.key] = guess;
    }
    const parts = [
      ...(missing.length > 0 ? [`a product lacks ${missing.join(', ')}`] : []),
      ...(names.length > 0 ? [`products have keys the interface does not name (${names.join(', ')})`] : []),
    ];
    state.log.warn({ missing, unknownKeys: names, suggestions, products: products.length },
      `adapter ${state.callback} reply: ${parts.join('; ')}; the service reads OrderedQuantity and SalePrice; sent as is (reported once per shape)`);
  };
}
