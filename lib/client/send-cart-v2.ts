/**
 * POST {base_url}/Checkout/SendCartV2?merchantGUID=… with the cart (SendCartData) as the JSON body —
 * for merchants on the push model, who send the cart to the service and hand its CartToken to the
 * checkout (docs.global-e.com checkout-methods.html "SendCartV2": the method/URL, the query's
 * merchantGUID and the example body; the PHP SDK's Processors/SendCartV2.php and the cartridge's
 * `Globale-SendCartV2` service send the same). The cart goes as given (the kit checks what it needs:
 * CountryCode and Products with their ProductCode); the V1 form (`/Checkout/SendCart` with the cart
 * in the query) is not offered. Resent on a 5xx: a cart sent twice gives two tokens, the first unused.
 */
import type { SendCartData, SendCartResult } from '../payloads.js';
import { isObject } from '../shared/options.js';
import { invalidArgument } from './errors.js';
import type { ResolvedClientOptions } from './options.js';
import { send } from './request.js';
import { errorFromAnswer, isSuccess, validBody } from './response.js';

const OPERATION = 'sendCartV2';

/** Sends the cart (SendCartV2, JSON body) and returns its CartToken; INVALID_ARGUMENT without a CountryCode or products. */
export async function sendCartV2(o: ResolvedClientOptions, cart: SendCartData): Promise<SendCartResult> {
  if (!isObject(cart) || typeof cart.CountryCode !== 'string' || !/^[A-Za-z]{2}$/.test(cart.CountryCode)) {
    throw invalidArgument(OPERATION, 'the cart must be a SendCartData object with a CountryCode (ISO 3166-1 alpha-2)');
  }
  if (!Array.isArray(cart.Products) || cart.Products.length === 0 || cart.Products.some((p) => !isObject(p) || typeof p.ProductCode !== 'string' || p.ProductCode === '')) {
    throw invalidArgument(OPERATION, 'the cart needs Products, each with a ProductCode');
  }
  let body: unknown;
  try { body = JSON.parse(JSON.stringify(cart)); } catch { throw invalidArgument(OPERATION, 'the cart must be JSON (no cycles, no BigInt)'); }
  const outcome = await send(o, { operation: OPERATION, method: 'POST', host: 'base', path: '/Checkout/SendCartV2', body, resend: true });
  if (!isSuccess(outcome.status)) throw errorFromAnswer(OPERATION, outcome);
  return validBody<SendCartResult>(OPERATION, outcome, 'service/send-cart-response.schema.json');
}
