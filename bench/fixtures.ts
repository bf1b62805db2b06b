/**
 * Benchmark payloads: a realistic SendOrderToMerchant order (customer details URL-encoded as the
 * service sends them, discounts, international details, a parcel) with any number of product lines.
 */
export const MERCHANT_GUID = '3f2c9a1e-7b4d-4e8a-9c61-2d5f0b8e4a17';
/** HS256 secret of the benchmark's JWT auth (at least 32 bytes). */
export const JWT_SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
export const ORDER_ID_PLACEHOLDER = '__ORDER_ID__';
/** kit-node-otel: kit-node with the OpenTelemetry SDK registered (bench/otel-sdk.ts); kit-node has @opentelemetry/api but no provider. */
export const SERVER_KINDS = ['bare-node', 'bare-express', 'peer-node', 'peer-express', 'kit-express', 'kit-node', 'kit-node-otel'] as const;
/** The kit (node:http binding) on a PostgresStore (bench/pg.ts; database from BENCH_PG_URL). */
export const PG_KIND = 'kit-node-pg';
/** The kit of another checkout (BENCH_BASELINE=<dir>), run from that checkout's bench/server.ts: before/after under the same load. */
export type BaselineKind = 'baseline-kit-node' | 'baseline-kit-express';
export type ServerKind = (typeof SERVER_KINDS)[number] | typeof PG_KIND | BaselineKind;
export const CALLBACK_PATH = '/cb/SendOrderToMerchant';

type Json = Record<string, unknown>;

function customer(first: string, last: string, street: string, city: string): Json {
  return {
    FirstName: first, LastName: last, MiddleName: '', Salutation: 'Ms',
    Email: `${first.toLowerCase()}.${last.toLowerCase()}%40example.com`,
    Address1: street, Address2: 'Apt+4%2F2', City: city, Zip: '8001', CountryCode: 'CH', CountryCode3: 'CHE',
    CountryName: 'Switzerland', StateCode: 'ZH', StateOrProvice: 'Z%C3%BCrich', Phone1: '%2B41+44+000+00+00',
    Phone2: '', Fax: '', Company: 'Muster+%26+Co+AG', AddressBookId: 'ab-1', SaveAddress: false,
  };
}

function line(i: number): Json {
  const price = 19.95 + (i % 7) * 5;
  return {
    Sku: `SKU-${1000 + i}`, Name: `Product+${i}+%E2%80%93+cotton+shirt`, CartItemId: `ci-${i}`,
    Quantity: 1 + (i % 3), Price: price, ListPrice: price + 5, VATRate: 19, CustomerVATRate: 7.7, RoundingRate: 1,
    DiscountedPrice: +(price * 0.9).toFixed(2), DiscountedPriceForCustoms: +(price * 0.85).toFixed(2),
    InternationalPrice: +(price * 1.08).toFixed(2), InternationalListPrice: +((price + 5) * 1.08).toFixed(2),
    InternationalDiscountedPrice: +(price * 0.97).toFixed(2), InternationalDiscountedPriceForCustoms: +(price * 0.92).toFixed(2),
    InternationalDiscountedPriceInMerchantCurrency: +(price * 0.9).toFixed(2),
    GenericHSCode: '610910', Brand: { BrandCode: 'ACME', Name: 'Acme' },
    Categories: [{ CategoryCode: 'TOPS', Name: 'Tops' }],
    Attributes: [{ AttributeKey: 'size', AttributeValue: ['S', 'M', 'L'][i % 3] }, { AttributeKey: 'color', AttributeValue: 'blue' }],
    DTBreakdown: { Duties: 1.2, SalesTaxes: 3.4, Other: 0 },
  };
}

/** A SendOrderToMerchant order with `lines` product lines. */
export function makeOrder(lines: number, orderId: string): Json {
  const products = Array.from({ length: lines }, (_, i) => line(i));
  return {
    MerchantGUID: MERCHANT_GUID,
    OrderId: orderId,
    CartId: 'cart-7f3a9c', CartHash: 'f1e2d3c4b5a69788', WebStoreCode: 'main', StatusCode: 'N/A',
    CurrencyCode: 'EUR', CurrencyName: 'Euro', DateCreated: '2026-11-21T10:15:00Z', OrderCreationSource: 0,
    AllowMailsFromMerchant: true, DoNotChargeVAT: false, IsFreeShipping: false, IsB2B: false, IsMoto: false,
    IsSplitOrder: false, PrePayOffered: false, SameDayDispatch: false,
    CCFPrice: 0, DiscountedShippingPrice: 9.5, TotalDutiesAndTaxesPrice: 18.4, TotalDutiesPaidByCustomerPrice: 18.4,
    USSalesTax: 0, PriceCoefficientRate: 1.08, RoundingRate: 1, LoyaltyPointsEarned: 120, LoyaltyPointsSpent: 0,
    Customer: { IsEndCustomerPrimary: true, SendConfirmation: true },
    PrimaryBilling: customer('Ren%C3%A9e', 'M%C3%BCller', 'Bahnhofstrasse+12', 'Z%C3%BCrich'),
    PrimaryShipping: customer('Ren%C3%A9e', 'M%C3%BCller', 'Seefeldstrasse+88', 'Z%C3%BCrich'),
    SecondaryBilling: customer('Jan', 'Doe', 'Main+Street+1', 'Bern'),
    SecondaryShipping: customer('Jan', 'Doe', 'Main+Street+1', 'Bern'),
    Products: products,
    Discounts: [
      { Name: 'Welcome+10%25', Price: 12.5, VATRate: 19, DiscountType: 1, DiscountSource: 1, CouponCode: 'WELCOME10', Description: 'Cart+discount' },
      { Name: 'Free+shipping+over+100', Price: 9.5, VATRate: 7.7, DiscountType: 2, DiscountSource: 2 },
      { Name: 'Loyalty', Price: 2, VATRate: 19, DiscountType: 3, DiscountSource: 7, ProductCartItemId: 'ci-1' },
    ],
    Markups: [],
    Parcels: [{ Code: 'P-1', ParcelStatusId: 1, StatusName: 'New', TrackingUrl: 'https%3A%2F%2Ftrack.example.com%2Ft%3Fn%3DP1', Products: products.slice(0, 3).map((p) => ({ Sku: p.Sku, CartItemId: p.CartItemId, Quantity: p.Quantity })) }],
    OrderPaymentMethods: [{ PaymentMethodId: 1, PaymentMethodName: 'Visa', PaidAmountInCustomerCurrency: 412.7, PaidAmountInMerchantCurrency: 380.1, IsGiftCard: false }],
    InternationalDetails: {
      CurrencyCode: 'CHF', TotalPrice: 412.7, TransactionCurrencyCode: 'CHF', TransactionTotalPrice: 412.7,
      TotalShippingPrice: 19, DiscountedShippingPrice: 9.5, TotalDutiesPrice: 18.4, TotalCCFPrice: 0, TotalVATAmount: 28.1,
      ShippingVATRate: 7.7, ConsignmentFee: 0, RemoteAreaSurcharge: 0, SizeOverchargeValue: 0, DutiesGuaranteed: true,
      DeliveryDaysFrom: 3, DeliveryDaysTo: 5, PaymentMethodCode: 'VISA', PaymentMethodName: 'Visa', CardNumberLastFourDigits: '1111',
      ShippingMethodCode: 'EXP', ShippingMethodName: 'Express', OrderTrackingNumber: 'TRK123456',
      OrderTrackingUrl: 'https%3A%2F%2Ftrack.example.com%2Ft%3Fn%3DTRK123456', CustomerDTBreakdown: { Duties: 6.1, SalesTaxes: 12.3 },
    },
    CustomerComments: 'Please+leave+at+the+door',
  };
}

/** The body template of the HTTP benchmark: a 20-line order whose OrderId is a placeholder. */
export function bodyTemplate(lines = 20): string {
  return JSON.stringify(makeOrder(lines, ORDER_ID_PLACEHOLDER));
}
