/**
 * A hand-written merchant endpoint (no kit inside), correct by default, with switchable flaws: what
 * a custom integration gets wrong. The checker must pass the correct one and catch each flaw.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_PATHS } from '../../../lib/core/registry.js';

export interface Flaws {
  /** Accepts any MerchantGUID, or none. */
  noGuidCheck?: boolean;
  /** Answers an unexpected error with a 500 carrying err.stack. */
  stackTraceIn500?: boolean;
  /** Creates a new order for every delivery, even of the same OrderId. */
  nonIdempotentCreate?: boolean;
  /** Sends no Cache-Control header. */
  noNoStore?: boolean;
  /** Answers any cart token (or none) with a cart. */
  noCartTokenCheck?: boolean;
  /** Answers bad input (wrong GUID, broken JSON) with a 500 instead of a 4xx. */
  badInputAs500?: boolean;
  /**
   * Not a flaw: remembers its orders as a real shop does — a new order under a known OrderId with
   * another body is 409 ORDER_EXISTS, a second cancel is 409 ORDER_CANCELED (pass one merchant to
   * several runs to see whether they reuse OrderIds).
   */
  stateful?: boolean;
  /**
   * Refusals answered with this status and no ResponseInfo (an HTML page): `guid` a wrong or missing
   * MerchantGUID, `json` a body that is not JSON, `cart` an unknown cart token.
   */
  refusalAnsweredWith?: { guid?: number; json?: number; cart?: number };
  /** Paths whose requests get no reply: the connection is dropped (a crashing handler behind a proxy). */
  dropConnection?: string[];
  /** Not a flaw: paths it does not serve (answered as a framework does: a plain "Cannot POST" 404). */
  unmounted?: string[];
}

export const FAKE_GUID = '3f9b6a2e-1c4d-4e8f-9a0b-7c6d5e4f3a2b';
export const FAKE_CART = 'cart-1';

type Json = Record<string, unknown>;

/** It serves every callback at its default path, taken from the registry: a new callback is served without an edit here. */
const KNOWN_PATHS: readonly string[] = Object.values(DEFAULT_PATHS);

export async function startFakeMerchant(flaws: Flaws = {}): Promise<{ url: string; close(): Promise<void> }> {
  const orders = new Map<string, string>();
  const cancelled = new Set<string>();
  const bodies = new Map<string, string>();
  const payments = new Map<string, Json>();
  let next = 1;

  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', ...(flaws.noNoStore ? {} : { 'cache-control': 'no-store' }) });
    res.end(JSON.stringify(body));
  };
  const declined = (res: ServerResponse, status: number, Message: string) =>
    reply(res, flaws.badInputAs500 && status !== 404 ? 500 : status, { Success: false, Message });

  const page = (res: ServerResponse, status: number) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><html><body><pre>Error ${status}</pre></body></html>`);
  };
  const refusal = flaws.refusalAnsweredWith ?? {};

  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/shop/, '');
    if ((flaws.dropConnection ?? []).includes(path)) { req.socket.destroy(); return; }
    if (!url.pathname.startsWith('/shop/') || (flaws.unmounted ?? []).includes(path) || !KNOWN_PATHS.includes(path)) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(`<!DOCTYPE html><html><body><pre>Cannot ${req.method} ${url.pathname}</pre></body></html>`);
    }
    if (path === '/GetCheckoutCartInfo') {
      if (!flaws.noCartTokenCheck && url.searchParams.get('merchantCartToken') !== FAKE_CART) {
        return refusal.cart ? page(res, refusal.cart) : declined(res, 404, 'cart not found');
      }
      return reply(res, 200, { productsList: [{ ProductCode: 'SKU-1', CartItemId: 'c1', OrderedQuantity: 1, SalePrice: 10 }], currencyCode: 'EUR' });
    }
    let body: Json;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return declined(res, 400, 'expected an object');
      body = parsed as Json;
    } catch {
      return refusal.json ? page(res, refusal.json) : declined(res, 400, 'invalid JSON');
    }
    const order = (typeof body.order === 'object' && body.order !== null ? body.order : body) as Json;
    if (!flaws.noGuidCheck && order.MerchantGUID !== FAKE_GUID) {
      // the preflight's empty probe still gets the merchant's own answer (it is mounted)
      return refusal.guid && order.OrderId !== undefined ? page(res, refusal.guid) : declined(res, 401, 'unauthorized');
    }
    const orderId = String(order.OrderId);
    const pay = () => {
      const paid = payments.get(orderId) ?? { PaymentAmount: '20.00', PaymentCurrencyCode: 'EUR' };
      payments.set(orderId, paid);
      return paid;
    };
    switch (path) {
      case '/SendOrderToMerchant': {
        let id = orders.get(orderId);
        if (flaws.stateful && bodies.has(orderId) && bodies.get(orderId) !== text) return reply(res, 409, { Success: false, ErrorCode: 'ORDER_EXISTS', Message: 'another order has this OrderId' });
        bodies.set(orderId, text);
        if (!id || flaws.nonIdempotentCreate) { id = `FM-${next++}`; orders.set(orderId, id); }
        return reply(res, 200, { Success: true, InternalOrderId: id, OrderId: id.slice(3), ...(order.PaymentDetails ? pay() : {}) });
      }
      case '/PerformOrderPayment': {
        const id = orders.get(orderId);
        if (!id) throw new Error(`no order ${orderId}`);
        return reply(res, 200, { Success: true, InternalOrderId: id, ...pay() });
      }
      case '/UpdateOrderStatus': {
        const id = orders.get(orderId);
        if (!id) return declined(res, 404, 'unknown order');
        if (flaws.stateful && cancelled.has(orderId)) return reply(res, 409, { Success: false, ErrorCode: 'ORDER_CANCELED', Message: 'order already cancelled' });
        if (String(body.StatusCode).toLowerCase().includes('cancel')) cancelled.add(orderId);
        return reply(res, 200, { Success: true, InternalOrderId: id });
      }
      default: {
        // every other callback (the documents webhook, a return, a parcel dispatch, …): accepted for an order it knows
        const id = orders.get(orderId);
        return id ? reply(res, 200, { Success: true, InternalOrderId: id }) : declined(res, 404, 'unknown order');
      }
    }
  };

  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { text += c; });
    req.on('end', () => {
      try {
        handle(req, res, text);
      } catch (err) {
        if (flaws.stackTraceIn500) reply(res, 500, { Success: false, Message: (err as Error).stack });
        else declined(res, 404, 'unknown order');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/shop`,
    close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }),
  };
}
