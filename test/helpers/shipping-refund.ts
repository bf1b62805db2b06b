/** Payloads of the two newer callbacks (shapes from existing integrations: test/fixtures/real-world/workarea-*.json). */
import { MERCHANT_GUID } from './orders.js';

type Json = Record<string, unknown>;

export function shippingInfo(overrides: Json = {}): Json {
  return {
    MerchantGUID: MERCHANT_GUID, OrderId: 'GE0421337US',
    InternationalDetails: { OrderTrackingNumber: '1265443', OrderTrackingUrl: 'http://www.somecarrier.com/?1265443' },
    ...overrides,
  };
}

export function refundNotice(overrides: Json = {}): Json {
  return {
    MerchantGUID: MERCHANT_GUID, OrderId: 'GE0421337US', MerchantOrderId: '1A2B3C4D5E', TotalRefundAmount: '170.10',
    OriginalTotalRefundAmount: '114.53', ServiceGestureAmount: '0.00', RefundComments: 'Fully refunded order',
    RefundReason: { OrderRefundReasonCode: 'DAMAGED-ITEM-CODE', Name: 'Damaged Item' },
    Products: [{ CartItemId: '5f1e2d3c4b5a697887766554', RefundQuantity: 1, OriginalRefundAmount: '114.5300', RefundAmount: '170.1000', RefundComments: 'Fully refunded order' }],
    WebStoreCode: null,
    ...overrides,
  };
}

/**
 * A parcel dispatch notification (UpdateParcelDispatch), as the page's request table describes it
 * (test/fixtures/real-world-4/gedocs-dispatchnotification-request.json; the page prints no example).
 * `parcel` overrides fields of DispatchedParcel.
 */
export function parcelDispatch(overrides: Json = {}, parcel: Json = {}): Json {
  return {
    DispatchedParcel: {
      ParcelTracking: { ParcelTrackingNumber: '1Z999AA10123456784', ParcelTrackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' },
      ParcelCode: '123454321', HubCode: 'LON-1', Code: 'DispatchedToCustomer', StatusName: 'Dispatched to Customer',
      Products: [{ SKU: '121212', CartItemId: '12365', Quantity: 1 }, { SKU: '131313', CartItemId: '12376', Quantity: 2 }],
      ...parcel,
    },
    OrderId: 'GE123874638GB', MerchantOrderId: '100018322', StatusCode: 'Dispatched', MerchantGUID: MERCHANT_GUID, WebStoreCode: 'GlobalEStore',
    ...overrides,
  };
}

/** A return (SendRMAInfoToMerchant), as the service's documentation shows it (test/fixtures/real-world-3/gedocs-sendrmainfomerchant-request.json). */
export function rmaInfo(overrides: Json = {}): Json {
  return {
    MerchantGUID: MERCHANT_GUID, OrderId: 'GE24192321GB', MerchantOrderId: '71144', RMANumber: '223878', ShipperName: 'DHL',
    ReturnTrackingNumber: '857854854778', TrackingURL: 'www.dhl.com/Tracking?TrackingNumber=857854854778', CreatedBy: 'Customer',
    ReturnedProducts: [{ SKU: 'ProductD', Name: 'Blue jacket', CartItemId: '2', ReturnQuantity: 1, ReturnReasonName: 'Arrived too late', MerchantReturnReasonCode: null, MerchantReturnReasonName: null }],
    CurrencyCode: 'EUR', ReturnShippingCost: 10.0,
    ...overrides,
  };
}
