/**
 * The service client: the merchant → service operations (docs/client.md). One factory, one options
 * object checked at construction; every failure is a ServiceError with a stable code.
 *
 * @module crossborder-merchant-kit/client
 */
import type { HubDetails, MerchantOrder, ShipmentInformation, VoidParcelResponse } from '../payloads.js';
import { unknownKeyMessage } from '../shared/did-you-mean.js';
import { activeHubDetails } from './active-hub.js';
import { requestAdditionalRequiredDocuments, type AdditionalDocumentsOrder, type AdditionalDocumentsOptions } from './additional-documents.js';
import type { DispatchOptions, DispatchSuccess } from './dispatch.js';
import type { DispatchRequestV1Input, DispatchRequestV2Input } from './dispatch-request.js';
import { invalidArgument, type ServiceOperation } from './errors.js';
import { createJwtSource } from './jwt.js';
import { resolveClientOptions, type ServiceClientOptions } from './options.js';
import { getShipmentInformation } from './shipment-information.js';
import { updateOrderDispatch } from './update-order-dispatch.js';
import { updateOrderDispatchV2 } from './update-order-dispatch-v2.js';
import type { RefundDetailsResponse } from '../payloads.js';
import { createOrderRefund, type CreateOrderRefundOptions, type OrderRefundCreated, type OrderRefundInput } from './create-order-refund.js';
import { getRefundDetails } from './refund-details.js';
import { updateOrderStatus, type OrderStatusInput, type OrderStatusUpdated, type UpdateOrderStatusOptions } from './update-order-status.js';
import { updateShippingAddress, type ShippingAddressAccepted, type ShippingAddressInput, type UpdateShippingAddressOptions } from './update-shipping-address.js';
import { getShippingDocuments, type ShippingDocumentsInput, type ShippingDocumentsOptions } from './shipping-documents.js';
import { dispatchOrders, type DispatchOrdersInput, type DispatchOrdersOptions } from './dispatch-orders.js';
import type { ShippingDocumentsResult } from './shipping-documents-answer.js';
import { getOrdersDetails } from './orders-details.js';
import { voidParcel, type VoidParcelInput, type VoidParcelOptions } from './void-parcel.js';
import type { BrowsingApi } from './browsing.js';
import { browsingApi } from './browsing.js';
import { catalogApi, type CatalogApi } from './catalog.js';
import { returnsTrackingApi, type ReturnsTrackingApi } from './returns-tracking.js';
import { checkoutInvoicesApi, type CheckoutInvoicesApi } from './checkout-invoices.js';

/**
 * The service client: each operation of the service a merchant calls, with its documented request form,
 * authentication (MerchantGUID, access token or JWT), a per-attempt time-out, retries with back-off for
 * what is safe to resend, and checked answers. Every failure is a {@link ServiceError}. Built by
 * {@link createServiceClient}; see docs/client.md.
 */
export interface ServiceClient extends BrowsingApi, CatalogApi, ReturnsTrackingApi, CheckoutInvoicesApi {
  /** GET {baseUrl}/api/shipments/{trackingNumber}: the data for an export declaration. */
  getShipmentInformation(trackingNumber: string): Promise<ShipmentInformation>;
  /** POST {merchantApiBaseUrl}/additional-required-documents; the documents arrive later through the documents webhook. */
  requestAdditionalRequiredDocuments(orders: readonly AdditionalDocumentsOrder[], options?: AdditionalDocumentsOptions): Promise<{ Success: true; [k: string]: unknown }>;
  /** POST {baseUrl}/Order/UpdateOrderDispatchV2. */
  updateOrderDispatchV2(request: DispatchRequestV2Input, options?: DispatchOptions): Promise<DispatchSuccess>;
  /** POST {baseUrl}/Order/UpdateOrderDispatch (V1). */
  updateOrderDispatch(request: DispatchRequestV1Input, options?: DispatchOptions): Promise<DispatchSuccess>;
  /** POST {baseUrl}/Browsing/ActiveHubDetails, cached for hubCacheTtlMs. */
  getActiveHubDetails(): Promise<HubDetails>;
  /** Forgets the cached hub (the next getActiveHubDetails asks the service). */
  clearActiveHubCache(): void;
  /** POST {baseUrl}/Order/UpdateOrderStatus?orderStatus=…: the merchant's status change (a cancellation with its reason). */
  updateOrderStatus(request: OrderStatusInput, options?: UpdateOrderStatusOptions): Promise<OrderStatusUpdated>;
  /** POST {baseUrl}/Order/CreateOrderRefund: never sent twice (see docs/client.md#refunds). */
  createOrderRefund(refund: OrderRefundInput, options?: CreateOrderRefundOptions): Promise<OrderRefundCreated>;
  /** GET {baseUrl}/v1/orders/{orderId}/refunds: the order's refunds as the service holds them. */
  getRefundDetails(orderId: string): Promise<RefundDetailsResponse>;
  /** PUT {baseUrl}/api/v1/orders/shipping-address with an Idempotency-Key; answered 202. */
  updateShippingAddress(request: ShippingAddressInput, options?: UpdateShippingAddressOptions): Promise<ShippingAddressAccepted>;
  /** POST {baseUrl}/Order/GetShippingDocuments: declares parcels and returns their documents (label, commercial invoice, …) decoded; guarded by fulfilment holds. */
  getShippingDocuments(request: ShippingDocumentsInput, options?: ShippingDocumentsOptions): Promise<ShippingDocumentsResult>;
  /** POST {baseUrl}/Order/DispatchOrders: dispatches orders and returns the manifest documents; one held order refuses the whole manifest. */
  dispatchOrders(request: DispatchOrdersInput, options?: DispatchOrdersOptions): Promise<ShippingDocumentsResult>;
  /** POST {baseUrl}/Order/GetOrdersDetails: the details (Merchant.Order) of orders by their service order ids. */
  getOrdersDetails(orderIds: readonly string[]): Promise<MerchantOrder[]>;
  /** POST {baseUrl}/Parcel/VoidParcel: takes a declared parcel out (its documents are void). */
  voidParcel(request: VoidParcelInput, options?: VoidParcelOptions): Promise<VoidParcelResponse & { IsSuccess: true }>;
}

function callOptions<T extends object>(operation: ServiceOperation, value: T | undefined, known: readonly string[]): T {
  if (value === undefined) return {} as T;
  if (typeof value !== 'object' || value === null) throw invalidArgument(operation, `the options argument must be an object { ${known.join(', ')} }`);
  for (const [k, v] of Object.entries(value)) {
    if (!known.includes(k)) throw invalidArgument(operation, unknownKeyMessage('', k, known));
    if (k === 'idempotencyKey') continue; // a string, checked by its operation
    if (v !== undefined && typeof v !== 'boolean') throw invalidArgument(operation, `option ${k} must be a boolean`);
  }
  return value;
}

/**
 * Builds the {@link ServiceClient} from its options, checked at once (did-you-mean on unknown keys). With
 * `store` (the one your callback router uses) the client refuses to dispatch an order on fulfilment hold,
 * to cancel or re-address a dispatched order and to refund twice.
 *
 * @param options - `baseUrl` and `merchantGuid` (required); authentication, time-out (default 10 s),
 * retry (default 2 retries), fetch, logger, store: {@link ServiceClientOptions}.
 * @throws KitError `ERR_CBK_OPTION_REQUIRED` without `baseUrl` or `merchantGuid`;
 * `ERR_CBK_OPTION_INVALID` for a URL that is not absolute http(s) or carries a query or credentials, a
 * malformed MerchantGUID, a bad duration or placement; `ERR_CBK_OPTION_UNKNOWN` for an unknown key.
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const o = resolveClientOptions(options);
  if (o.jwt) o.jwtSource = createJwtSource(o);
  const hub = activeHubDetails(o);
  return {
    getShipmentInformation: (trackingNumber) => getShipmentInformation(o, trackingNumber),
    requestAdditionalRequiredDocuments: async (orders, opts) =>
      requestAdditionalRequiredDocuments(o, orders, callOptions('requestAdditionalRequiredDocuments', opts, ['retry'])),
    updateOrderDispatchV2: async (request, opts) => updateOrderDispatchV2(o, request, callOptions('updateOrderDispatchV2', opts, ['force', 'retry'])),
    updateOrderDispatch: async (request, opts) => updateOrderDispatch(o, request, callOptions('updateOrderDispatch', opts, ['force', 'retry'])),
    getActiveHubDetails: () => hub.get(),
    clearActiveHubCache: () => hub.clear(),
    updateOrderStatus: async (request, opts) => updateOrderStatus(o, request, callOptions('updateOrderStatus', opts, ['force'])),
    createOrderRefund: async (refund, opts) => createOrderRefund(o, refund, callOptions('createOrderRefund', opts, ['force'])),
    getRefundDetails: (orderId) => getRefundDetails(o, orderId),
    updateShippingAddress: async (request, opts) => updateShippingAddress(o, request, callOptions('updateShippingAddress', opts, ['idempotencyKey', 'force'])),
    getShippingDocuments: async (request, opts) => getShippingDocuments(o, request, callOptions('getShippingDocuments', opts, ['force', 'retry'])),
    dispatchOrders: async (request, opts) => dispatchOrders(o, request, callOptions('dispatchOrders', opts, ['force', 'retry'])),
    getOrdersDetails: (orderIds) => getOrdersDetails(o, orderIds),
    voidParcel: async (request, opts) => voidParcel(o, request, callOptions('voidParcel', opts, ['retry'])),
    ...browsingApi(o),
    ...catalogApi(o),
    ...returnsTrackingApi(o),
    ...checkoutInvoicesApi(o),
  };
}

export { ServiceError, SERVICE_ERROR_CODES, type ServiceErrorCode, type ServiceErrorInit, type ServiceOperation } from './errors.js';
export type { ServiceClientOptions, RetryOptions, FetchLike, MerchantGuidPlacement, JwtOptions } from './options.js';
export type { AdditionalDocumentsOrder, AdditionalDocumentsOptions } from './additional-documents.js';
export type { DispatchOptions, DispatchSuccess } from './dispatch.js';
export type {
  DispatchRequestV2Input, DispatchRequestV1Input, DispatchParcelInput, DispatchParcelInputV2, DispatchProductInput, DispatchExceptionInput, TrackingDetailsInput,
} from './dispatch-request.js';
export type { OrderStatusInput, OrderStatusUpdated, UpdateOrderStatusOptions } from './update-order-status.js';
export type { OrderRefundInput, RefundProductInput, RefundReasonInput, CreateOrderRefundOptions, OrderRefundCreated, Amount } from './create-order-refund.js';
export type { ShippingAddressInput, ShippingAddressAccepted, UpdateShippingAddressOptions } from './update-shipping-address.js';
export type { ShippingDocumentsInput, ShippingDocumentsOptions } from './shipping-documents.js';
export type { DispatchOrdersInput, DispatchOrdersOptions } from './dispatch-orders.js';
export { DOCUMENT_TYPES, type ShippingDocumentsResult, type DecodedShippingDocument, type DocumentFormat } from './shipping-documents-answer.js';
export { SHIPPING_DOCUMENTS_CODES, DISPATCH_ORDERS_CODES, VOID_PARCEL_CODES } from './service-codes.js';
export type { VoidParcelInput, VoidParcelOptions } from './void-parcel.js';
export type { BrowsingApi, WebStoreCodes, CountriesFilter, CountryCoefficientsFilter, RoundingRulesFilter, ProductRestrictionsPage } from './browsing.js';
export type { CatalogApi, CatalogPricesInput, CatalogPriceProduct, ProductsListSaved, ProductsSaved, SaveProductsBulkOptions, SaveProductsListOptions, BatchReport } from './catalog.js';
export type { ReturnsTrackingApi, TrackingEventsInput, RmaUpdateInput } from './returns-tracking.js';
export type { CheckoutInvoicesApi, ProductCountriesInput } from './checkout-invoices.js';
