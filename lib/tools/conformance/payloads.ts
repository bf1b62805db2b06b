/**
 * Callback payloads shaped like the ones the service really sends (../shared/fixtures/real-world):
 * URL-encoded Primary* personal fields ('+' for spaces, percent-escapes), plain Secondary* fields,
 * nulls on optional fields, StateOrProvince (not the spec's StateOrProvice), a test card in
 * PaymentDetails, an EAD in AdditionalRequiredDocuments. Shared by the checker and the sandbox.
 */

import { randomInt } from 'node:crypto';

export type Json = Record<string, unknown>;

/** A line the service orders: SKU, quantity, unit price and the merchant's cart item id. */
export interface OrderLineInput { sku: string; quantity: number; price: number; cartItemId?: string; name?: string }

/** The well-known Visa test number; the sandbox and the checker never send a real card. */
export const TEST_CARD = Object.freeze({ CardNumber: '4111111111111111', CVVNumber: '737', ExpirationDate: '2030-03-31' });

/** Products used when the merchant gave no cart to take them from. */
export const DEFAULT_LINES: readonly OrderLineInput[] = Object.freeze([
  { sku: 'TSHIRT-BLUE-M', quantity: 2, price: 29.95, cartItemId: 'sbx-ci-1', name: 'T-shirt, blue, M' },
  { sku: 'MUG-LOGO', quantity: 1, price: 12.5, cartItemId: 'sbx-ci-2', name: 'Logo mug' },
]);

/**
 * Ids are GE + a random 7-digit run tag + a 6-digit counter + SB. The tag is drawn per process (and
 * again when the counter wraps), so two runs — `check` twice, `check` then `trigger full`, parallel
 * CI jobs — never reuse an OrderId a merchant remembers (issue 22).
 */
let runTag = '';
let sequence = 0;

/** A fresh service OrderId (GE + 13 digits + SB): unique in this process, random across processes and runs. */
export function newServiceOrderId(): string {
  if (runTag === '' || sequence >= 999_999) {
    runTag = String(randomInt(0, 10_000_000)).padStart(7, '0');
    sequence = 0;
  }
  sequence += 1;
  return `GE${runTag}${String(sequence).padStart(6, '0')}SB`;
}

/** Personal fields URL-encoded as the service sends them on Primary* (the merchant must decode). */
export function encodedCustomer(overrides: Json = {}): Json {
  return {
    FirstName: 'Ren%C3%A9e', LastName: 'Cohen+Levi', MiddleName: null, Salutation: null, Company: null,
    Address1: 'Hertzel+12%2F4', Address2: null, City: 'Tel+Aviv', StateCode: null, StateOrProvince: null, Zip: '6109101',
    Email: 'alex%2Btag%40test.com', Phone1: '%2B972+3+555+0000', Phone2: null, Fax: null,
    CountryCode: 'IL', CountryCode3: 'ISR', CountryName: 'Israel', ...overrides,
  };
}

/** The same, with values that do not decode: a bad escape (`%zz`) and a cut UTF-8 sequence (`%E2%82`). */
export function malformedEncodedCustomer(): Json {
  return encodedCustomer({ Address2: '100%zz+off', Company: 'Caf%E2%82+Noir' });
}

/** Secondary* details: sent plain (not encoded), with nulls on what is not known. */
export function plainCustomer(overrides: Json = {}): Json {
  return {
    FirstName: 'John', LastName: 'Smith', MiddleName: null, Salutation: null, Company: 'Global Sandbox Ltd',
    Address1: '79 Madison Ave', Address2: null, City: 'New York', StateCode: 'NY', StateOrProvince: 'NY', Zip: '10016',
    Email: 'service@example.com', Phone1: '+1 (212) 634-3952', Phone2: null, Fax: null,
    CountryCode: 'US', CountryCode3: 'USA', CountryName: 'United States', ...overrides,
  };
}

export function paymentDetails(): Json {
  return {
    ...TEST_CARD, OwnerName: 'Ren%C3%A9e+Cohen', OwnerFirstName: null, OwnerLastName: null,
    Address1: '79 Madison Ave', Address2: null, City: 'New York', Zip: '10016', StateCode: 'NY', StateOrProvince: 'NY',
    CountryCode: 'IL', CountryCode3: 'ISR', CountryName: 'Israel', Email: 'service@example.com', Fax: null, Phone1: null, Phone2: null,
    PaymentMethodCode: '1', PaymentMethodName: 'Visa', PaymentMethodTypeCode: 'CreditCard',
  };
}

function productOf(line: OrderLineInput, index: number): Json {
  const p = line.price;
  return {
    Sku: line.sku, Name: line.name ?? null, Quantity: line.quantity, CartItemId: line.cartItemId ?? `sbx-ci-${index + 1}`,
    Price: p, ListPrice: p, VATRate: 19, CustomerVATRate: 17, RoundingRate: 1, DiscountedPrice: p,
    DiscountedPriceForCustoms: p, InternationalPrice: p, InternationalDiscountedPrice: p, InternationalDiscountedPriceForCustoms: p,
    InternationalDiscountedPriceInMerchantCurrency: p, InternationalListPrice: p,
    Attributes: [], Brand: null, Categories: [], GenericHSCode: null, IsBackOrdered: false, BackOrderDate: null,
  };
}

/** The order's total in its currency: lines plus the discounted shipping price, 2 decimals. */
export function orderTotal(lines: readonly OrderLineInput[], shipping = 9.9): number {
  return Math.round((lines.reduce((s, l) => s + l.price * l.quantity, 0) + shipping) * 100) / 100;
}

export interface OrderInput {
  merchantGuid: string;
  orderId: string;
  lines: readonly OrderLineInput[];
  cartId?: string;
  currency?: string;
  trackingNumber?: string;
  /** Primary* details (default: encodedCustomer()). */
  primary?: Json;
  extra?: Json;
}

/** A Merchant.Order as SendOrderToMerchant delivers it (top-level; wrap it as `{ order }` for the envelope form). */
export function serviceOrder(input: OrderInput): Json {
  const primary = input.primary ?? encodedCustomer();
  const total = orderTotal(input.lines);
  return {
    MerchantGUID: input.merchantGuid, OrderId: input.orderId, MerchantOrderId: null, CartId: input.cartId ?? null,
    CartHash: null, UserId: null, StatusCode: 'N/A', OrderCreationSource: 0, ReservationRequestId: null,
    CurrencyCode: input.currency ?? 'EUR', CultureCode: 'en-GB', InitialCheckoutCultureCode: 'en-GB', HubId: 2,
    AllowMailsFromMerchant: false, ClearCart: true, DoNotChargeVAT: false, IsFreeShipping: false, IsSplitOrder: false,
    FreeShippingCouponCode: null, LoyaltyCode: null, LoyaltyPointsEarned: 0, LoyaltyPointsSpent: 0,
    OTVoucherAmount: null, OTVoucherCode: null, OTVoucherCurrencyCode: null, CustomerComments: null,
    SameDayDispatch: false, SameDayDispatchCost: 0, RoundingRate: 1, PriceCoefficientRate: 1,
    TotalDutiesAndTaxesPrice: 0, CCFPrice: 0, DiscountedShippingPrice: 9.9, WebStoreCode: null, WebStoreInstanceCode: null,
    Customer: { EmailAddress: null, IsEndCustomerPrimary: true, SendConfirmation: false },
    PrimaryBilling: { ...primary }, PrimaryShipping: { ...primary },
    SecondaryBilling: plainCustomer(), SecondaryShipping: plainCustomer(),
    Products: input.lines.map(productOf), Discounts: [], Markups: [],
    OrderDocuments: [{
      DocumentTypeCode: '8', DocumentTypeName: 'CustomerReceiptInvoice', DocumentExtension: 'PDF',
      URL: `https://documents.sandbox.invalid/receipts/${input.orderId}.pdf`,
    }],
    ShippingMethodCode: 'EXP', PaymentDetails: null, OriginalOrder: null, UrlParameters: null,
    InternationalDetails: {
      CurrencyCode: 'ILS', TotalPrice: Math.round(total * 3.9 * 100) / 100, TransactionCurrencyCode: 'ILS',
      TransactionTotalPrice: Math.round(total * 3.9 * 100) / 100, TotalShippingPrice: 38.61, DiscountedShippingPrice: 38.61,
      TotalDutiesPrice: 0, TotalCCFPrice: 0, TotalVATAmount: 0, ShippingVATRate: 0, DutiesGuaranteed: true,
      DeliveryDaysFrom: 2, DeliveryDaysTo: 4, PaymentMethodCode: '1', PaymentMethodName: 'Visa',
      CardNumberLastFourDigits: TEST_CARD.CardNumber.slice(-4), ExpirationDate: TEST_CARD.ExpirationDate,
      ShippingMethodCode: '40001858', ShippingMethodName: 'DHL Express Worldwide', ShippingMethodStatusCode: 'Undefined',
      ShippingMethodStatusName: 'undefined', OrderTrackingNumber: input.trackingNumber ?? null, OrderWaybillNumber: null,
      OrderTrackingUrl: input.trackingNumber
        ? `https%3a%2f%2ftrack.sandbox.invalid%2fOrder%2fTrack%3fOrderId%3d${input.orderId}%26n%3d${input.trackingNumber}`
        : null,
      ParcelsTracking: null,
    },
    ...input.extra,
  };
}

/** A tiny, valid one-page PDF, base64: the EAD's DocumentData. */
export const SAMPLE_PDF_BASE64 = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n'
  + '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
).toString('base64');

/** A Movement Reference Number shaped like a German export MRN (year, DE, 14 characters). */
export function mrnFor(orderId: string, trackingNumber: string): string {
  const year = String(new Date().getUTCFullYear()).slice(-2);
  const digits = `${orderId}${trackingNumber}`.replace(/[^0-9]/g, '').padEnd(12, '7').slice(-12);
  return `${year}DE${digits}E1`;
}

/** The EAD (DocumentTypeCode 11) for one tracking number: announced on the order, delivered by the webhook. */
export function eadDocument(orderId: string, trackingNumber: string, options: { baseUrl?: string; withData?: boolean } = {}): Json {
  const base = (options.baseUrl ?? 'https://documents.sandbox.invalid').replace(/\/+$/, '');
  return {
    DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF',
    URL: `${base}/documents/${encodeURIComponent(orderId)}/${encodeURIComponent(trackingNumber)}.pdf`,
    TrackingNumber: trackingNumber, ParcelCode: `${orderId}-1`, ShippingServiceName: 'DHL Express Worldwide',
    ...(options.withData
      ? { DocumentData: SAMPLE_PDF_BASE64, DocumentReference: mrnFor(orderId, trackingNumber), CreationDateTime: new Date().toISOString().slice(0, 19) }
      : {}),
  };
}

/** The documents webhook's body (SendAdditionalRequiredDocumentsToMerchant). */
export function documentsDelivery(merchantGuid: string, orderId: string, documents: Json[]): Json {
  return { MerchantGUID: merchantGuid, OrderId: orderId, Documents: documents };
}

/** A tracking number for a sandbox order (carrier-like: 1Z + 16 characters). */
export function trackingNumberFor(orderId: string): string {
  return `1ZSBX${orderId.replace(/[^0-9]/g, '').padStart(13, '0').slice(-13)}`;
}
