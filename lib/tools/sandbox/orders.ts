/**
 * Per-order state the sandbox keeps, as the service would: lines ordered and dispatched, payment,
 * fulfilment hold and documents, parcels, completion and cancellation, plus a timeline of what
 * happened. Every change is published (the sandbox passes it to the exchange log as an `order` event).
 */

/** A documented DispatchOrders refusal an order of the sandbox can be seeded with (`dispatch` on a seed order; manifest-request.ts). */
export type DispatchSimulation = 'consolidated' | 'not-consolidated' | 'no-destination-hub' | 'manifest-fails' | 'consolidated-awb-fails' | 'no-source-hub';
export const DISPATCH_SIMULATIONS: readonly DispatchSimulation[] = ['consolidated', 'not-consolidated', 'no-destination-hub', 'manifest-fails', 'consolidated-awb-fails', 'no-source-hub'];
/** One line of a sandbox order: the product, units ordered, dispatched so far and excepted. */
export interface OrderLineState {
  sku: string;
  cartItemId?: string;
  name?: string;
  ordered: number;
  /** Units declared in dispatched parcels so far (all dispatches add up). */
  dispatched: number;
  /** Units declared in dispatch exceptions (out of stock, backorder, …). */
  excepted: number;
}

/** A parcel the merchant dispatched to the sandbox (V1 or V2): its code, tracking number and products. */
export interface DispatchedParcel {
  at: string;
  version: 'V1' | 'V2';
  parcelCode: string;
  trackingNumber?: string;
  products: Array<{ sku: string; cartItemId?: string; quantity: number }>;
  /** DispatchOrders took the parcel (by its order, or by the parcel: parcel-level dispatch). */
  manifested?: boolean;
}

/** One event of an order's timeline as the console shows it (created, paid, held, dispatched, …). */
export interface TimelineEntry {
  at: string;
  /** e.g. created, paid, hold-announced, documents-requested, documents-delivered, dispatched, completed, cancelled. */
  event: string;
  detail?: string;
  /** The exchange that caused it, when there is one (see ExchangeLog.get). */
  exchangeId?: number;
  /** Files the event produced (shipping documents, a manifest): the console links each for download. */
  links?: Array<{ label: string; href: string }>;
}

/** A shipping document the sandbox issued through GetShippingDocuments or DispatchOrders. */
export interface IssuedDocument {
  at: string;
  /** File name, unique within the order (e.g. `P-1-label.zpl`). */
  name: string;
  /** DocumentTypeCode: 4 label, 1 commercial invoice, 3 manifest. */
  typeCode: string;
  extension: 'PDF' | 'ZPL';
  parcelCode?: string;
  trackingNumber?: string;
  /** Path of its download on the sandbox (below the sandbox's URL). */
  path: string;
}

/** A refund the sandbox made (CreateOrderRefund), as GetRefundDetails lists it. */
export interface SandboxRefund {
  RefundID: string;
  at: string;
  FullRefund: boolean;
  /** Decimal text, customer's currency. */
  TotalRefundAmount: string;
  ExternalReference: string | null;
  InitiatedBy: 'Merchant' | 'Service';
  RefundReason: Record<string, unknown> | null;
  RefundComments: string | null;
  RefundProducts: Array<Record<string, unknown>>;
}

/**
 * An order as the sandbox keeps it: ids, merchant, lines, status, holds, parcels, documents, refunds and its timeline.
 */
export interface OrderState {
  orderId: string;
  merchantOrderId?: string;
  /** The merchant's InternalOrderId from its ResponseInfo. */
  internalOrderId?: string;
  /** Id of the seed merchant the order belongs to (`default` is the sandbox's own merchant). */
  merchant: string;
  /** Where it came from: the seed data, a scenario, or a conformance check run through the sandbox. */
  source: 'seed' | 'scenario' | 'check';
  trackingNumbers: string[];
  lines: OrderLineState[];
  created: boolean;
  paid: { amount: string; currency: string } | null;
  /** The order carried AdditionalRequiredDocuments: the merchant must hold fulfilment. */
  holdAnnounced: boolean;
  documentsRequested: boolean;
  documentsDelivered: boolean;
  parcels: DispatchedParcel[];
  completed: boolean;
  cancelled: boolean;
  /** Refunds made through CreateOrderRefund, oldest first. */
  refunds: SandboxRefund[];
  /** The shipping address the merchant last set (PUT …/shipping-address), as sent. */
  shippingAddress?: Record<string, unknown>;
  /** Shipping documents issued for the order (GetShippingDocuments; the manifest of DispatchOrders). */
  shippingDocuments: IssuedDocument[];
  /** DispatchOrders took the order (every parcel of it): dispatched on a manifest. */
  manifested: boolean;
  /** A documented DispatchOrders refusal this order simulates (seed order `dispatch`; manifest-request.ts). */
  dispatch?: DispatchSimulation;
  /** The latest TIMELINE_LIMIT events, oldest first. */
  timeline: TimelineEntry[];
  /** How many older events were dropped from `timeline` (0 when none). */
  timelineDropped: number;
}

/** Events an order's timeline keeps; older ones are dropped and counted in `timelineDropped`. */
export const TIMELINE_LIMIT = 200;

/** An order to add to the book (`OrderBook.add`): the sandbox's seed orders, a scenario's or the check's. */
export interface NewOrder {
  orderId: string;
  merchant?: string;
  merchantOrderId?: string;
  source?: 'seed' | 'scenario' | 'check';
  trackingNumbers?: string[];
  lines: Array<{ sku: string; quantity: number; cartItemId?: string; name?: string }>;
  dispatch?: DispatchSimulation;
}

/**
 * The sandbox's orders (those the scenarios created and the seed's), with every change published to the console.
 */
export class OrderBook {
  private readonly orders = new Map<string, OrderState>();

  /** `publish` hears a copy of the order after every change. */
  constructor(private readonly publish?: (order: OrderState) => void) {}

  /** Adds an order (or returns the existing one with that OrderId, unchanged). */
  add(input: NewOrder): OrderState {
    const existing = this.orders.get(input.orderId);
    if (existing) return existing;
    const order: OrderState = {
      orderId: input.orderId,
      ...(input.merchantOrderId ? { merchantOrderId: input.merchantOrderId } : {}),
      merchant: input.merchant ?? 'default',
      ...(input.dispatch ? { dispatch: input.dispatch } : {}),
      source: input.source ?? 'scenario',
      trackingNumbers: [...(input.trackingNumbers ?? [])],
      lines: input.lines.map((l) => ({
        sku: l.sku, ordered: l.quantity, dispatched: 0, excepted: 0,
        ...(l.cartItemId ? { cartItemId: l.cartItemId } : {}), ...(l.name ? { name: l.name } : {}),
      })),
      created: input.source === 'seed', paid: null, holdAnnounced: false, documentsRequested: false, documentsDelivered: false,
      parcels: [], completed: false, cancelled: false, refunds: [], shippingDocuments: [], manifested: false, timeline: [], timelineDropped: 0,
    };
    this.orders.set(order.orderId, order);
    return order;
  }

  /** The order with this OrderId, of any merchant. */
  get(orderId: string): OrderState | undefined {
    return this.orders.get(orderId);
  }

  /** The order with this OrderId, else this merchant order id (MerchantOrderId or the InternalOrderId it replied), visible to `merchant`. */
  find(ids: { orderId?: string; merchantOrderId?: string }, merchant: string): OrderState | undefined {
    const byId = ids.orderId ? this.orders.get(ids.orderId) : undefined;
    if (byId) return byId.merchant === merchant ? byId : undefined;
    if (ids.orderId) return undefined;
    if (!ids.merchantOrderId) return undefined;
    const wanted = ids.merchantOrderId;
    for (const o of this.orders.values()) {
      if (o.merchant === merchant && (o.merchantOrderId === wanted || o.internalOrderId === wanted)) return o;
    }
    return undefined;
  }

  /** Every order, oldest first. */
  list(): OrderState[] {
    return [...this.orders.values()];
  }

  /** Applies `change` to the order, appends a timeline entry and publishes the new state. */
  update(orderId: string, event: string, change: (order: OrderState) => void, extra: { detail?: string; exchangeId?: number; links?: TimelineEntry['links'] } = {}): OrderState | undefined {
    const order = this.orders.get(orderId);
    if (!order) return undefined;
    change(order);
    order.timeline.push({ at: new Date().toISOString(), event, ...extra });
    if (order.timeline.length > TIMELINE_LIMIT) order.timelineDropped += order.timeline.splice(0, order.timeline.length - TIMELINE_LIMIT).length;
    this.publish?.(structuredClone(order));
    return order;
  }
}
