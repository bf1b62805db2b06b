/**
 * An in-memory shop: catalogue, carts, orders, payments and cancellation. It knows nothing about
 * the callback kit; adapter.ts translates between the two. A real shop keeps this in its database.
 */

export interface CatalogueItem { sku: string; name: string; price: number; weightGrams: number; stock: number; imageUrl: string }
export interface CartLine { sku: string; quantity: number }
export interface OrderLine { sku: string; quantity: number; price: number }
export type OrderStatus = 'received' | 'awaiting-documents' | 'paid' | 'shipped' | 'canceled';

export interface ShopOrder {
  internalId: string;
  displayId: string;
  serviceOrderId: string;
  lines: OrderLine[];
  currency: string;
  status: OrderStatus;
  shipTo: { name: string; address: string; city: string; countryCode: string; email: string };
  documents: Array<{ type: string; url: string }>;
  awaitingDocuments: boolean;
}

export interface Payment { orderId: string; amount: string; currency: string; cardLast4: string; refunded: boolean }

/** A failure the shop reports to its caller (the adapter turns it into a CallbackError). */
export class ShopError extends Error {
  constructor(readonly code: 'CART_NOT_FOUND' | 'UNKNOWN_SKU' | 'OUT_OF_STOCK' | 'ORDER_NOT_FOUND' | 'ALREADY_SHIPPED' | 'ORDER_CANCELED' | 'CARD_DECLINED', message: string) {
    super(message);
    this.name = 'ShopError';
  }
}

/** Luhn check: the fake payment gateway declines card numbers that fail it. */
export function luhnValid(cardNumber: string): boolean {
  const digits = cardNumber.replace(/\s+/g, '');
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

export class Shop {
  readonly currency = 'EUR';
  readonly catalogue = new Map<string, CatalogueItem>();
  readonly carts = new Map<string, CartLine[]>();
  readonly orders = new Map<string, ShopOrder>(); // by the service's OrderId
  readonly payments: Payment[] = [];
  private nextOrderNumber = 1001;

  constructor() {
    for (const item of [
      { sku: 'TSHIRT-BLUE-M', name: 'T-shirt, blue, M', price: 29.95, weightGrams: 180, stock: 500, imageUrl: 'https://shop.example.com/img/tshirt-blue.jpg' },
      { sku: 'MUG-LOGO', name: 'Logo mug', price: 12.5, weightGrams: 350, stock: 500, imageUrl: 'https://shop.example.com/img/mug.jpg' },
      { sku: 'CAP-RED', name: 'Cap, red', price: 19.0, weightGrams: 90, stock: 0, imageUrl: 'https://shop.example.com/img/cap-red.jpg' },
    ]) this.catalogue.set(item.sku, item);
    // The cart the demo asks about; the cap is out of stock, so cart info leaves it out.
    this.carts.set('demo-cart', [{ sku: 'TSHIRT-BLUE-M', quantity: 2 }, { sku: 'MUG-LOGO', quantity: 1 }, { sku: 'CAP-RED', quantity: 1 }]);
  }

  /** The cart's lines that are in stock (the service must only be shown in-stock products). */
  inStockCart(token: string): Array<CartLine & { item: CatalogueItem }> {
    const cart = this.carts.get(token);
    if (!cart) throw new ShopError('CART_NOT_FOUND', `No cart ${token}`);
    return cart
      .map((line) => ({ ...line, item: this.catalogue.get(line.sku)! }))
      .filter((line) => line.item && line.item.stock >= line.quantity);
  }

  /** Creates an order, or updates it when the service sends the same OrderId again. */
  placeOrder(serviceOrderId: string, lines: OrderLine[], currency: string, shipTo: ShopOrder['shipTo'], awaitingDocuments: boolean): ShopOrder {
    const existing = this.orders.get(serviceOrderId);
    if (existing && existing.status === 'canceled') throw new ShopError('ORDER_CANCELED', `Order ${serviceOrderId} was canceled`);
    if (existing) this.restock(existing.lines);
    for (const line of lines) {
      const item = this.catalogue.get(line.sku);
      if (!item) { if (existing) this.reserve(existing.lines); throw new ShopError('UNKNOWN_SKU', `Unknown SKU ${line.sku}`); }
      if (item.stock < line.quantity) { if (existing) this.reserve(existing.lines); throw new ShopError('OUT_OF_STOCK', `${line.sku} has ${item.stock} in stock`); }
    }
    this.reserve(lines);
    const order: ShopOrder = existing ?? {
      internalId: `BM-${this.nextOrderNumber}`, displayId: String(this.nextOrderNumber++), serviceOrderId,
      lines, currency, status: 'received', shipTo, documents: [], awaitingDocuments,
    };
    Object.assign(order, { lines, currency, shipTo, awaitingDocuments: awaitingDocuments && order.documents.length === 0 });
    if (order.awaitingDocuments && order.status === 'received') order.status = 'awaiting-documents';
    this.orders.set(serviceOrderId, order);
    return order;
  }

  order(serviceOrderId: string): ShopOrder {
    const order = this.orders.get(serviceOrderId);
    if (!order) throw new ShopError('ORDER_NOT_FOUND', `No order ${serviceOrderId}`);
    return order;
  }

  /** Charges a card through the (fake) gateway. Only the last four digits are kept. */
  charge(serviceOrderId: string, amount: number, currency: string, cardNumber: string): Payment {
    if (!luhnValid(cardNumber)) throw new ShopError('CARD_DECLINED', 'The card was declined');
    const payment: Payment = { orderId: serviceOrderId, amount: amount.toFixed(2), currency, cardLast4: cardNumber.slice(-4), refunded: false };
    this.payments.push(payment);
    const order = this.orders.get(serviceOrderId);
    if (order && order.status === 'received') order.status = 'paid';
    return payment;
  }

  /** Cancels an order: stock goes back, payments are refunded. Shipped orders cannot be canceled. */
  cancel(serviceOrderId: string): ShopOrder {
    const order = this.order(serviceOrderId);
    if (order.status === 'canceled') return order;
    if (order.status === 'shipped') throw new ShopError('ALREADY_SHIPPED', `Order ${order.displayId} has already shipped`);
    this.restock(order.lines);
    for (const p of this.payments) if (p.orderId === serviceOrderId) p.refunded = true;
    order.status = 'canceled';
    return order;
  }

  /** Records any other status the service reports (e.g. 'shipped'). */
  setStatus(serviceOrderId: string, status: OrderStatus): ShopOrder {
    const order = this.order(serviceOrderId);
    order.status = status;
    return order;
  }

  /** Files additional documents (e.g. the customs EAD) and releases an order held for them. */
  attachDocuments(serviceOrderId: string, documents: Array<{ type: string; url: string }>): ShopOrder {
    const order = this.order(serviceOrderId);
    order.documents.push(...documents);
    if (order.awaitingDocuments) {
      order.awaitingDocuments = false;
      if (order.status === 'awaiting-documents') order.status = this.isPaid(serviceOrderId) ? 'paid' : 'received';
    }
    return order;
  }

  isPaid(serviceOrderId: string): boolean {
    return this.payments.some((p) => p.orderId === serviceOrderId && !p.refunded);
  }

  private reserve(lines: OrderLine[]) { for (const l of lines) this.catalogue.get(l.sku)!.stock -= l.quantity; }
  private restock(lines: OrderLine[]) { for (const l of lines) { const item = this.catalogue.get(l.sku); if (item) item.stock += l.quantity; } }
}
