/**
 * Realistic callback payloads for behaviour suites: every field the spec marks required is present,
 * so the suites hold whether the placeholder validators or the schema (AJV) validators run.
 * Values are decode-invariant (no '+' or '%'); decoding suites set encoded values explicitly.
 * Each builder returns a fresh object; pass `overrides` to change or add top-level fields.
 */
export const MERCHANT_GUID = '3f2c9a1e-7b4d-4e8a-9c61-2d5f0b8e4a17';
export const OTHER_GUID = '9d8e7f60-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
export const CARD_NUMBER = '4111111111111111';
export const CVV_NUMBER = '737';

type Json = Record<string, unknown>;

export function customerDetails(overrides: Json = {}): Json {
  return {
    FirstName: 'Jane', LastName: 'Doe', Email: 'jane.doe@example.com', Address1: 'Main Street 1',
    Address2: '', City: 'Zurich', Zip: '8001', CountryCode: 'CH', CountryName: 'Switzerland',
    StateOrProvice: '', Phone1: '0041 44 000 00 00', Company: '', ...overrides,
  };
}

export function product(overrides: Json = {}): Json {
  return {
    Sku: 'TSHIRT-BLUE-M', Name: 'T-shirt blue M', Quantity: 2, Price: 64.95, ListPrice: 64.95,
    VATRate: 19, CustomerVATRate: 7.7, RoundingRate: 1, DiscountedPrice: 54.58, DiscountedPriceForCustoms: 54.58,
    InternationalDiscountedPrice: 64.95, InternationalDiscountedPriceForCustoms: 64.95,
    InternationalDiscountedPriceInMerchantCurrency: 54.58, CartItemId: 'ci-1', ...overrides,
  };
}

export function paymentDetails(overrides: Json = {}): Json {
  return {
    CardNumber: CARD_NUMBER, CVVNumber: CVV_NUMBER, ExpirationDate: '2029-08-31',
    CountryCode: 'CH', CountryName: 'Switzerland', PaymentMethodCode: 'VISA', PaymentMethodName: 'Visa',
    PaymentMethodTypeCode: 'CreditCard', OwnerName: 'Jane Doe', Address1: 'Main Street 1', City: 'Zurich',
    Zip: '8001', Email: 'jane.doe@example.com', Phone1: '0041 44 000 00 00', ...overrides,
  };
}

/** A SendOrderToMerchant order (no payment unless PaymentDetails is added). */
export function order(overrides: Json = {}): Json {
  return {
    MerchantGUID: MERCHANT_GUID,
    OrderId: 'GE1001CH',
    CartId: 'cart-7f3a',
    CurrencyCode: 'EUR',
    StatusCode: 'N/A',
    Customer: { IsEndCustomerPrimary: true, SendConfirmation: false },
    PrimaryBilling: customerDetails(),
    PrimaryShipping: customerDetails(),
    Products: [product()],
    Discounts: [],
    InternationalDetails: {
      CurrencyCode: 'CHF', TotalPrice: 129.9, TransactionCurrencyCode: 'CHF', TransactionTotalPrice: 129.9,
      TotalShippingPrice: 12, ShippingVATRate: 7.7, OrderTrackingNumber: 'TRK123', OrderTrackingUrl: 'https://track.example.com/t?n=TRK123',
    },
    ...overrides,
  };
}

/** An UpdateOrderStatus order: OrderId and StatusCode are the mandatory fields. */
export function statusUpdate(statusCode = 'canceled', overrides: Json = {}): Json {
  return { MerchantGUID: MERCHANT_GUID, OrderId: 'GE1001CH', StatusCode: statusCode, ...overrides };
}

/** A PerformOrderPayment order: OrderId and PaymentDetails are mandatory. */
export function paymentOrder(overrides: Json = {}): Json {
  return order({ PaymentDetails: paymentDetails(), ...overrides });
}

/** A mixed order: the parent and its Subs. */
export function mixedOrder(overrides: Json = {}): Json {
  return order({
    Subs: [
      order({ OrderId: 'GE1001CH-1', MerchantGUID: undefined, Products: [product({ Sku: 'MUG-1', CartItemId: 'ci-2' })] }),
      order({ OrderId: 'GE1001CH-2', MerchantGUID: undefined, Products: [product({ Sku: 'CAP-1', CartItemId: 'ci-3' })] }),
    ].map(withoutUndefined),
    ...overrides,
  });
}

/** A documents-webhook delivery. */
export function documentsDelivery(overrides: Json = {}): Json {
  return {
    MerchantGUID: MERCHANT_GUID,
    OrderId: 'GE1001CH',
    Documents: [{
      DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF',
      URL: 'https://docs.example.com/ead/GE1001CH.pdf', DocumentData: Buffer.from('%PDF-1.4 test').toString('base64'),
      DocumentReference: '24DE123456789012345', TrackingNumber: 'TRK123',
    }],
    ...overrides,
  };
}

/** The envelope form of an order body: `{ order: {...} }`. */
export const envelope = (o: Json): Json => ({ order: o });

export function withoutUndefined(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** A CheckoutCartInfo an adapter returns. */
export function cartInfo(overrides: Json = {}): Json {
  return {
    productsList: [{ ProductCode: 'TSHIRT-BLUE-M', Name: 'T-shirt blue M', OrderedQuantity: 2, SalePrice: 64.95, CartItemId: 'ci-1' }],
    currencyCode: 'EUR',
    CountryCode: 'CH',
    ...overrides,
  };
}
