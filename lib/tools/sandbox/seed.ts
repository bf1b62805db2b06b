/**
 * Seed data: the merchants, orders and shipments the sandbox's service API knows at start. The
 * built-in set covers every answer the API can give (docs/sandbox.md lists the tracking numbers);
 * `--data <file.json>` adds to it or replaces parts of it (same shape, validated when loaded).
 */
import { readFileSync } from 'node:fs';
import { isObject } from '../../shared/options.js';
import { DISPATCH_SIMULATIONS, type DispatchSimulation } from './orders.js';

/** A merchant of the sandbox's seed data: its id, MerchantGUID, access token, and what its account allows. */
export interface SeedMerchant {
  /** Id the orders and shipments refer to; `default` is the sandbox's own merchant (its GUID is `--guid`). */
  id: string;
  guid: string;
  /** Bearer token that identifies this merchant on the service API. */
  accessToken?: string;
  /** getShipmentInformation answers 403 FORBIDDEN when false. Default true. */
  shipmentApiEnabled?: boolean;
  /** DispatchOrders by ParcelCodes or TrackingNumbers (parcel-level dispatch) answers B403 when false. Default true. */
  parcelDispatch?: boolean;
}

/**
 * An order of the seed data: its ids, merchant, tracking numbers and lines, and a dispatch refusal it simulates.
 */
export interface SeedOrder {
  orderId: string;
  merchantOrderId?: string;
  merchant: string;
  trackingNumbers: string[];
  lines: Array<{ sku: string; quantity: number; cartItemId?: string; name?: string }>;
  /** A documented DispatchOrders refusal the order simulates (B003, B004, B200, B400, B500, B600; manifest-request.ts). */
  dispatch?: DispatchSimulation;
}

/** A product of a seed shipment, with its customs data (a null HS code or value makes the shipment answer 409). */
export interface SeedProduct {
  productCode: string;
  productName: string;
  originCountryCode: string;
  quantity: number;
  productNetWeight: number;
  productWeight: number;
  /** null: the commodity code cannot be resolved (409). */
  exportHsCode: string | null;
  importHsCode: string;
  /** Customs value of one unit; null: unavailable (409). */
  customsValue: number | null;
}

/** A shipment as the service holds it, gaps included (a gap answers 409 SHIPMENT_CONFIGURATION_INCOMPLETE). */
export interface SeedShipment {
  trackingNumber: string;
  merchant: string;
  orderId: string;
  /** `internal-error`: reading it answers 500 INTERNAL_ERROR. */
  fail?: 'internal-error';
  weightUnit: 'kg' | 'gr' | 'lb' | 'oz';
  parcelWeight?: number;
  /** Currencies of the lines; more than one means no single clearance currency (409). */
  currencyCodes: string[];
  dispatchCountryCode: string;
  destinationCountryCode: string;
  incoterm: 'DDP' | 'DAP';
  exporter: {
    name: string; eoriNumber: string | null; vatRegistrationNumber?: string; address1: string; address2?: string;
    city: string; postalCode: string; countryCode: string;
  };
  commercialInvoice: { number: string; date: string };
  products: SeedProduct[];
}

/** The merchant hub GetActiveHubDetails answers (field names as the service sends them). */
export interface SeedHub {
  HubId: number; HubName: string; Address1: string; Address2: string; City: string; StateCode: string; StateOrProvice: string;
  Zip: string; CountryCode: string; CountryName: string; Email: string; Phone1: string; Phone2: string; Fax: string;
}

/**
 * The sandbox's seed data: merchants, orders, shipments and the hub (`--seed <file>` merges a file into the built-in one).
 */
export interface SeedData {
  merchants: SeedMerchant[];
  orders: SeedOrder[];
  shipments: SeedShipment[];
  hub: SeedHub;
}

/** Tracking numbers of the built-in seed, by the answer they give (docs/sandbox.md). */
export const SEED_TRACKING_NUMBERS = Object.freeze({
  ok: 'SBX1000000001',
  okHighValue: 'SBX1000000002',
  otherMerchant: 'SBX9000000001',
  missingEori: 'SBX4090000001',
  missingCommodityCode: 'SBX4090000002',
  missingLineValue: 'SBX4090000003',
  mixedCurrencies: 'SBX4090000004',
  internalError: 'SBX5000000001',
});

/** Bearer tokens of the built-in seed's other merchants. */
export const SEED_TOKENS = Object.freeze({ otherMerchant: 'sbx-token-other-merchant', apiDisabled: 'sbx-token-api-disabled' });

const exporter = {
  name: 'Sandbox Trading GmbH', eoriNumber: 'DE123456789012345' as string | null, vatRegistrationNumber: 'DE123456789',
  address1: 'Hafenstrasse 1', city: 'Hamburg', postalCode: '20457', countryCode: 'DE',
};

const tshirt: SeedProduct = {
  productCode: 'TSHIRT-BLUE-M', productName: 'T-shirt, blue, M', originCountryCode: 'PT', quantity: 2,
  productNetWeight: 0.165, productWeight: 0.18, exportHsCode: '61091000', importHsCode: '6109100010', customsValue: 29.95,
};
const mug: SeedProduct = {
  productCode: 'MUG-LOGO', productName: 'Logo mug', originCountryCode: 'DE', quantity: 1,
  productNetWeight: 0.33, productWeight: 0.35, exportHsCode: '69120021', importHsCode: '6912002100', customsValue: 12.5,
};
const jacket: SeedProduct = {
  productCode: 'JKT-ALPINE-M', productName: 'Alpine jacket, M', originCountryCode: 'VN', quantity: 1,
  productNetWeight: 1.1, productWeight: 1.3, exportHsCode: '62019300', importHsCode: '6201930000', customsValue: 1249,
};

/** Customs data the sandbox holds per SKU, for the shipments of orders its scenarios create. */
export const SEED_CATALOGUE: readonly SeedProduct[] = Object.freeze([tshirt, mug, jacket]);

/**
 * The shipment of an order a scenario created: one parcel with the order's lines, customs data from
 * SEED_CATALOGUE. A SKU the catalogue does not know has no commodity code, so reading the shipment
 * answers 409 SHIPMENT_CONFIGURATION_INCOMPLETE, as the service does for a product it cannot classify.
 */
export function shipmentForOrder(order: { orderId: string; trackingNumber: string; lines: ReadonlyArray<{ sku: string; quantity: number; price: number; name?: string }> }, merchant = 'default'): SeedShipment {
  const products = order.lines.map((line): SeedProduct => {
    const known = SEED_CATALOGUE.find((p) => p.productCode === line.sku);
    return known
      ? { ...known, quantity: line.quantity, customsValue: line.price }
      : {
        productCode: line.sku, productName: line.name ?? line.sku, originCountryCode: 'DE', quantity: line.quantity,
        productNetWeight: 0.5, productWeight: 0.5, exportHsCode: null, importHsCode: '', customsValue: line.price,
      };
  });
  const held = shipment(order.trackingNumber, order.orderId, products, { merchant });
  held.commercialInvoice.date = new Date().toISOString().slice(0, 10);
  return held;
}

function shipment(trackingNumber: string, orderId: string, products: SeedProduct[], extra: Partial<SeedShipment> = {}): SeedShipment {
  return {
    trackingNumber, merchant: 'default', orderId, weightUnit: 'kg', currencyCodes: ['EUR'],
    dispatchCountryCode: 'DE', destinationCountryCode: 'CH', incoterm: 'DDP', exporter: { ...exporter },
    commercialInvoice: { number: `CI-${orderId.replace(/\D/g, '').slice(-9)}`, date: '2026-11-20' }, products, ...extra,
  };
}

function order(orderId: string, merchantOrderId: string, trackingNumber: string, products: SeedProduct[], merchant = 'default'): SeedOrder {
  return {
    orderId, merchantOrderId, merchant, trackingNumbers: [trackingNumber],
    lines: products.map((p, i) => ({ sku: p.productCode, quantity: p.quantity, cartItemId: `${merchantOrderId}-${i + 1}`, name: p.productName })),
  };
}

/** The built-in seed, with the sandbox merchant's GUID and access token. */
export function defaultSeed(merchantGuid: string, accessToken?: string): SeedData {
  const t = SEED_TRACKING_NUMBERS;
  const specs: Array<[string, string, string, SeedProduct[], Partial<SeedShipment>, string?]> = [
    ['GE100000001SB', 'M-1001', t.ok, [tshirt, mug], {}],
    ['GE100000002SB', 'M-1002', t.okHighValue, [jacket], { destinationCountryCode: 'US', incoterm: 'DAP' }],
    ['GE900000001SB', 'X-9001', t.otherMerchant, [mug], { merchant: 'other' }, 'other'],
    ['GE100000003SB', 'M-1003', t.missingEori, [tshirt], { exporter: { ...exporter, eoriNumber: null } }],
    ['GE100000004SB', 'M-1004', t.missingCommodityCode, [{ ...mug, exportHsCode: null }], {}],
    ['GE100000005SB', 'M-1005', t.missingLineValue, [tshirt, { ...mug, customsValue: null }], {}],
    ['GE100000006SB', 'M-1006', t.mixedCurrencies, [tshirt, mug], { currencyCodes: ['EUR', 'CHF'] }],
    ['GE100000007SB', 'M-1007', t.internalError, [mug], { fail: 'internal-error' }],
  ];
  return {
    merchants: [
      { id: 'default', guid: merchantGuid, ...(accessToken ? { accessToken } : {}), shipmentApiEnabled: true },
      { id: 'other', guid: '0b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d', accessToken: SEED_TOKENS.otherMerchant, shipmentApiEnabled: true },
      { id: 'api-disabled', guid: '9e8d7c6b-5a49-4382-a716-f5e4d3c2b1a0', accessToken: SEED_TOKENS.apiDisabled, shipmentApiEnabled: false },
    ],
    orders: specs.map(([id, mid, tn, products, , merchant]) => order(id, mid, tn, products, merchant)),
    shipments: specs.map(([id, , tn, products, extra]) => shipment(tn, id, products, extra)),
    hub: {
      HubId: 2, HubName: 'Sandbox Hub Frankfurt', Address1: 'Cargo City Sued, Gebaeude 558', Address2: '', City: 'Frankfurt am Main',
      StateCode: 'HE', StateOrProvice: 'Hessen', Zip: '60549', CountryCode: 'DE', CountryName: 'Germany',
      Email: 'hub.fra@sandbox.invalid', Phone1: '+49 69 0000 0000', Phone2: '', Fax: '',
    },
  };
}

/**
 * Thrown for seed data that cannot be used (`code` `SANDBOX_SEED_INVALID`; the message names the file and the entry).
 */
export class SeedError extends Error {
  readonly code = 'SANDBOX_SEED_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

/**
 * Merges a seed file's content into `base`: merchants, orders and shipments are added (an entry
 * with the id / OrderId / trackingNumber of a built-in one replaces it); `hub` replaces the hub.
 */
export function mergeSeed(base: SeedData, extra: unknown, source = 'seed data'): SeedData {
  if (!isObject(extra)) throw new SeedError(`${source}: expected a JSON object with merchants, orders, shipments and/or hub`);
  const unknown = Object.keys(extra).filter((k) => !['merchants', 'orders', 'shipments', 'hub'].includes(k));
  if (unknown.length) throw new SeedError(`${source}: unknown key(s) ${unknown.join(', ')} (expected merchants, orders, shipments, hub)`);
  const list = <T>(key: string, idOf: (v: T) => unknown, check: (v: Record<string, unknown>, where: string) => void, current: T[]): T[] => {
    const given = extra[key];
    if (given === undefined) return current;
    if (!Array.isArray(given)) throw new SeedError(`${source}: ${key} must be an array`);
    const out = [...current];
    given.forEach((item, i) => {
      const where = `${source}: ${key}[${i}]`;
      if (!isObject(item)) throw new SeedError(`${where} must be an object`);
      check(item, where);
      const at = out.findIndex((v) => idOf(v) === idOf(item as T));
      if (at >= 0) out[at] = item as T; else out.push(item as T);
    });
    return out;
  };
  const str = (v: Record<string, unknown>, key: string, where: string) => {
    if (typeof v[key] !== 'string' || (v[key] as string).length === 0) throw new SeedError(`${where}.${key} must be a non-empty string`);
  };
  const merchants = list<SeedMerchant>('merchants', (m) => m.id, (m, w) => { str(m, 'id', w); str(m, 'guid', w); }, base.merchants);
  const orders = list<SeedOrder>('orders', (o) => o.orderId, (o, w) => {
    str(o, 'orderId', w); str(o, 'merchant', w);
    if (!Array.isArray(o.lines) || o.lines.some((l) => !isObject(l) || typeof l.sku !== 'string' || typeof l.quantity !== 'number')) {
      throw new SeedError(`${w}.lines must be an array of { sku, quantity }`);
    }
    if (!Array.isArray(o.trackingNumbers)) throw new SeedError(`${w}.trackingNumbers must be an array of strings`);
    if (o.dispatch !== undefined && !DISPATCH_SIMULATIONS.includes(o.dispatch as DispatchSimulation)) throw new SeedError(`${w}.dispatch must be one of ${DISPATCH_SIMULATIONS.join(', ')}`);
  }, base.orders);
  const shipments = list<SeedShipment>('shipments', (s) => s.trackingNumber, (s, w) => {
    str(s, 'trackingNumber', w); str(s, 'merchant', w); str(s, 'orderId', w);
    if (!Array.isArray(s.products) || s.products.length === 0) throw new SeedError(`${w}.products must be a non-empty array`);
    if (!Array.isArray(s.currencyCodes)) throw new SeedError(`${w}.currencyCodes must be an array`);
    if (!isObject(s.exporter) || !isObject(s.commercialInvoice)) throw new SeedError(`${w} needs exporter and commercialInvoice objects`);
  }, base.shipments);
  const hub = extra.hub === undefined ? base.hub : extra.hub;
  if (!isObject(hub)) throw new SeedError(`${source}: hub must be an object`);
  const known = new Set(merchants.map((m) => m.id));
  for (const o of orders) if (!known.has(o.merchant)) throw new SeedError(`${source}: order ${o.orderId} names unknown merchant ${o.merchant}`);
  for (const s of shipments) if (!known.has(s.merchant)) throw new SeedError(`${source}: shipment ${s.trackingNumber} names unknown merchant ${s.merchant}`);
  return { merchants, orders, shipments, hub: hub as unknown as SeedHub };
}

/** Reads a seed file (`--data`) and merges it into `base`. */
export function loadSeedFile(path: string, base: SeedData): SeedData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new SeedError(`cannot read seed data ${path}: ${(err as Error).message}`);
  }
  return mergeSeed(base, parsed, path);
}
