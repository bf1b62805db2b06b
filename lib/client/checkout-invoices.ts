/**
 * The rest of issue 50's operations, gathered (one file per operation beside this one;
 * docs/client.md#invoices-carts-and-product-countries): the commercial invoice download, SendCartV2,
 * AppVersion, ProductCountryS and LocationsDefaultCulturesList.
 */
import type { AppVersion, LocationDefaultCulture, ProductCountry, SendCartData, SendCartResult } from '../payloads.js';
import { getAppVersion } from './app-version.js';
import { getDefaultCultures } from './default-cultures.js';
import type { ResolvedClientOptions } from './options.js';
import { getOrdersVatInvoice } from './orders-vat-invoice.js';
import { getProductCountries, type ProductCountriesInput } from './product-countries.js';
import { sendCartV2 } from './send-cart-v2.js';

/** The commercial invoice download, the cart push and three browsing look-ups (AppVersion, ProductCountryS, LocationsDefaultCulturesList). */
export interface CheckoutInvoicesApi {
  /**
   * POST {baseUrl}/Order/GetOrdersVATInvoice?orderId=…&orderId=…: the orders' international commercial
   * (VAT) invoice, the PDF's bytes as received (1 to 100 order ids; INVALID_RESPONSE when the answer is not a PDF).
   */
  getOrdersVatInvoice(orderIds: readonly string[]): Promise<Uint8Array>;
  /** POST {baseUrl}/Checkout/SendCartV2 with the cart as the JSON body: the CartToken for the checkout (push model). */
  sendCartV2(cart: SendCartData): Promise<SendCartResult>;
  /** POST {baseUrl}/Browsing/AppVersion: the service API's and client code's versions. */
  getAppVersion(): Promise<AppVersion>;
  /**
   * POST {baseUrl}/Browsing/ProductCountryS?countryCode=…&productCode=…: each product's restrictions and VAT
   * rate type in one shipping country (100 codes per call, more are split and merged).
   */
  getProductCountries(request: ProductCountriesInput): Promise<ProductCountry[]>;
  /** POST {baseUrl}/Browsing/LocationsDefaultCulturesList: every location's default culture (the cartridge's Cultures job). */
  getDefaultCultures(): Promise<LocationDefaultCulture[]>;
}

/** The operations above, bound to one client's resolved options. */
export function checkoutInvoicesApi(o: ResolvedClientOptions): CheckoutInvoicesApi {
  return {
    getOrdersVatInvoice: async (orderIds) => getOrdersVatInvoice(o, orderIds),
    sendCartV2: async (cart) => sendCartV2(o, cart),
    getAppVersion: () => getAppVersion(o),
    getProductCountries: async (request) => getProductCountries(o, request),
    getDefaultCultures: () => getDefaultCultures(o),
  };
}

export type { ProductCountriesInput };
