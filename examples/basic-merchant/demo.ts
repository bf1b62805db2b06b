/**
 * `npm run demo`: plays the service against the running example (`npm start`), one realistic
 * request per callback, and prints a transcript: request → status and ResponseInfo.
 * BASE_URL (default http://localhost:$PORT, PORT as for `npm start`, default 3000) and MERCHANT_GUID
 * (default the demo GUID) select the target.
 */
import { BASE_PATH, DEMO_MERCHANT_GUID } from './app.js';

const baseUrl = (process.env.BASE_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/$/, '');
const guid = process.env.MERCHANT_GUID || DEMO_MERCHANT_GUID;
const run = Date.now().toString(36).toUpperCase();

// Addresses arrive URL-encoded from the service; the kit decodes them before the adapter sees them.
const customer = {
  FirstName: 'Ren%C3%A9e', LastName: 'Cohen', Address1: 'Hertzel+12', City: 'Tel+Aviv', Zip: '6109101',
  CountryCode: 'IL', CountryName: 'Israel', Email: 'alex%2Btag%40test.com', Phone1: '%2B972+3+555+0000',
};
const product = (Sku: string, Quantity: number, Price: number) => ({
  Sku, Quantity, Price, ListPrice: Price, VATRate: 19, CustomerVATRate: 17, RoundingRate: 1, DiscountedPrice: Price,
  DiscountedPriceForCustoms: Price, InternationalDiscountedPrice: Price, InternationalDiscountedPriceForCustoms: Price,
  InternationalDiscountedPriceInMerchantCurrency: Price,
});
const order = (OrderId: string, extra: Record<string, unknown> = {}) => ({
  MerchantGUID: guid, OrderId, CartId: 'demo-cart', CurrencyCode: 'EUR', StatusCode: 'N/A',
  Customer: { IsEndCustomerPrimary: true, SendConfirmation: true },
  PrimaryBilling: customer, PrimaryShipping: customer,
  Products: [product('TSHIRT-BLUE-M', 2, 29.95), product('MUG-LOGO', 1, 12.5)],
  DiscountedShippingPrice: 9.9,
  ...extra,
});
const payment = {
  CardNumber: '4111111111111111', CVVNumber: '737', ExpirationDate: '2029-08-31', CountryCode: 'IL', CountryName: 'Israel',
  PaymentMethodCode: 'VISA', PaymentMethodName: 'Visa', PaymentMethodTypeCode: 'CreditCard', OwnerName: 'Ren%C3%A9e+Cohen',
};
const ead = {
  DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF',
  URL: `https://docs.example.com/ead/GE${run}-2.pdf`, DocumentReference: '24DE000000000000001',
};

interface Step { title: string; method: 'GET' | 'POST'; path: string; body?: unknown; expect: number }
const steps: Step[] = [
  { title: 'GetCheckoutCartInfo (GET)', method: 'GET', path: '/GetCheckoutCartInfo?merchantCartToken=demo-cart&countryCode=IL&currencyCode=ILS', expect: 200 },
  { title: 'GetCheckoutCartInfo (POST)', method: 'POST', path: '/GetCheckoutCartInfo?merchantCartToken=demo-cart&countryCode=IL', body: { MerchantGUID: guid, OrderID: `GE${run}-1` }, expect: 200 },
  { title: 'SendOrderToMerchant', method: 'POST', path: '/SendOrderToMerchant', body: { order: order(`GE${run}-1`) }, expect: 200 },
  { title: 'PerformOrderPayment', method: 'POST', path: '/PerformOrderPayment', body: { order: order(`GE${run}-1`, { PaymentDetails: payment }) }, expect: 200 },
  { title: 'SendOrderToMerchant (with payment, awaiting documents)', method: 'POST', path: '/SendOrderToMerchant', body: order(`GE${run}-2`, { PaymentDetails: payment, AdditionalRequiredDocuments: [ead] }), expect: 200 },
  { title: 'SendAdditionalRequiredDocumentsToMerchant', method: 'POST', path: '/SendAdditionalRequiredDocumentsToMerchant', body: { MerchantGUID: guid, OrderId: `GE${run}-2`, Documents: [ead] }, expect: 200 },
  { title: 'UpdateOrderStatus (canceled)', method: 'POST', path: '/UpdateOrderStatus', body: { order: { MerchantGUID: guid, OrderId: `GE${run}-1`, StatusCode: 'canceled' } }, expect: 200 },
  { title: 'UpdateOrderStatus with a wrong MerchantGUID', method: 'POST', path: '/UpdateOrderStatus', body: { MerchantGUID: '00000000-0000-0000-0000-000000000000', OrderId: `GE${run}-2`, StatusCode: 'canceled' }, expect: 401 },
];

function summary(body: unknown): string {
  if (body && typeof body === 'object' && Array.isArray((body as { productsList?: unknown }).productsList)) {
    const info = body as { productsList: Array<{ ProductCode?: string; OrderedQuantity?: number }>; currencyCode?: string };
    return `CheckoutCartInfo: ${info.productsList.map((p) => `${p.OrderedQuantity} x ${p.ProductCode}`).join(', ')} (${info.currencyCode})`;
  }
  return JSON.stringify(body);
}

let failures = 0;
process.stdout.write(`Demo against ${baseUrl}${BASE_PATH} (run ${run})\n\n`);
for (const step of steps) {
  const url = `${baseUrl}${BASE_PATH}${step.path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: step.method,
      headers: step.body === undefined ? {} : { 'content-type': 'application/json' },
      body: step.body === undefined ? undefined : JSON.stringify(step.body),
    });
  } catch (err) {
    process.stderr.write(`cannot reach ${baseUrl} (${(err as Error).cause ?? (err as Error).message}). Start the example first: npm start\n`);
    process.exit(1);
  }
  const text = await res.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* shown as text */ }
  const ok = res.status === step.expect;
  if (!ok) failures += 1;
  process.stdout.write(`→ ${step.method} ${BASE_PATH}${step.path}   ${step.title}\n`);
  process.stdout.write(`← ${res.status} ${summary(body)}${ok ? '' : `   (expected ${step.expect})`}\n\n`);
}
process.stdout.write(failures === 0 ? 'All callbacks answered as expected.\n' : `${failures} callback(s) did not answer as expected.\n`);
process.exit(failures === 0 ? 0 : 1);
