/**
 * From a getShipmentInformation answer to a declaration decision and its lines. Bonded status is
 * never returned by the service: the merchant names its bonded product codes. Amounts are already
 * rounded by the service and are not re-rounded: line values and weights are exact decimal products.
 */
import { KitError } from '../shared/errors.js';
import type { ShipmentInformation } from '../payloads.js';
import { compare, sum, times, toDecimal, toNumber, type Decimal } from '../shared/decimal.js';
import { exportDeclarationRequired, type ExportDeclarationDecision } from './rule.js';

/**
 * Options of {@link exportDeclarationForShipment}: what the service does not return — your bonded product
 * codes, the EUR rate of the declaration's currency, and the postal codes for split countries.
 */
export interface ShipmentDeclarationOptions {
  /** The merchant's bonded product codes (exact productCode match). Default: none. */
  bondedProductCodes?: Iterable<string>;
  /** EUR per 1 unit of exportDeclaration.currencyCode; required unless the currency is EUR. */
  eurExchangeRate?: number;
  /** Postal code of the dispatch place (the service does not return it), for split countries. */
  dispatchPostalCode?: string;
  /** Postal code of the destination (the order's shipping address), for split countries. */
  destinationPostalCode?: string;
}

/**
 * One line of a {@link ShipmentDeclaration}: a product of the shipment with its codes (HS, origin),
 * quantity, values and weights (per unit and in total, exact decimal products), and whether it is bonded.
 */
export interface DeclarationLine {
  orderId: string;
  parcelTrackingNumber?: string;
  productCode: string;
  productName: string;
  originCountryCode: string;
  exportHsCode: string;
  importHsCode: string;
  quantity: number;
  bonded: boolean;
  /** Customs value of one unit, in currencyCode. */
  unitCustomsValue: number;
  /** unitCustomsValue × quantity. */
  customsValue: number;
  /** Net weight of one unit, in weightUnit. */
  unitNetWeight: number;
  /** unitNetWeight × quantity. */
  netWeight: number;
  /** Gross weight of one unit including its own packaging, in weightUnit. */
  unitGrossWeight: number;
}

/**
 * A mismatch found while reconciling the service's answer: line weights or values that do not add up to
 * the declared totals, or a bonded product code that is not in the shipment.
 */
export interface ReconciliationWarning {
  code: 'WEIGHT_MISMATCH' | 'VALUE_MISMATCH' | 'UNKNOWN_BONDED_PRODUCT';
  message: string;
}

/**
 * What {@link exportDeclarationForShipment} answers: the decision ({@link ExportDeclarationDecision}), the
 * declaration's lines and their totals, and the reconciliation warnings.
 */
export interface ShipmentDeclaration extends ExportDeclarationDecision {
  trackingNumber: string;
  currencyCode: string;
  weightUnit: string;
  lines: DeclarationLine[];
  /** Sum of the lines' customsValue. */
  linesTotalValue: number;
  /** Sum of the lines' netWeight. */
  linesNetWeight: number;
  warnings: ReconciliationWarning[];
}

const invalid = (message: string): never => {
  throw new KitError('ERR_CBK_INVALID_ARGUMENT', `exportDeclarationForShipment: ${message}`);
};

function num(value: unknown, where: string): Decimal {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) invalid(`${where} must be a finite number >= 0`);
  return toDecimal(value as number);
}

/** The decision for a shipment, its declaration lines and what does not add up. */
export function exportDeclarationForShipment(info: ShipmentInformation, options: ShipmentDeclarationOptions = {}): ShipmentDeclaration {
  const shipment = info?.shipment;
  const declaration = info?.exportDeclaration;
  if (!shipment || !Array.isArray(shipment.parcels) || !declaration || typeof declaration !== 'object') {
    invalid('expected a ShipmentInformation ({ shipment, exportDeclaration }) as getShipmentInformation returns it');
  }
  const bondedCodes = new Set<string>(options.bondedProductCodes ?? []);
  const lines: DeclarationLine[] = [];
  const values: Decimal[] = [];
  const netWeights: Decimal[] = [];
  shipment.parcels.forEach((parcel, p) => {
    if (!Array.isArray(parcel?.products)) invalid(`shipment.parcels[${p}].products must be an array`);
    parcel.products.forEach((product, i) => {
      const where = `shipment.parcels[${p}].products[${i}]`;
      if (!Number.isInteger(product.quantity) || product.quantity < 1) invalid(`${where}.quantity must be an integer >= 1`);
      const qty = toDecimal(product.quantity);
      const value = times(num(product.discountedPriceForCustomsInClearanceCurrency, `${where}.discountedPriceForCustomsInClearanceCurrency`), qty);
      const net = times(num(product.productNetWeight, `${where}.productNetWeight`), qty);
      values.push(value);
      netWeights.push(net);
      lines.push({
        orderId: parcel.orderId,
        ...(parcel.parcelTrackingNumber !== undefined ? { parcelTrackingNumber: parcel.parcelTrackingNumber } : {}),
        productCode: product.productCode,
        productName: product.productName,
        originCountryCode: product.originCountryCode,
        exportHsCode: product.exportHsCode,
        importHsCode: product.importHsCode,
        quantity: product.quantity,
        bonded: bondedCodes.has(product.productCode),
        unitCustomsValue: product.discountedPriceForCustomsInClearanceCurrency,
        customsValue: toNumber(value),
        unitNetWeight: product.productNetWeight,
        netWeight: toNumber(net),
        unitGrossWeight: product.productWeight,
      });
    });
  });

  const warnings: ReconciliationWarning[] = [];
  const parcelWeights = sum(shipment.parcels.map((p, i) => num(p.parcelWeight, `shipment.parcels[${i}].parcelWeight`)));
  const totalWeight = num(shipment.totalWeight, 'shipment.totalWeight');
  if (compare(parcelWeights, totalWeight) !== 0) {
    warnings.push({ code: 'WEIGHT_MISMATCH', message: `the parcels weigh ${toNumber(parcelWeights)} ${shipment.weightUnit} together but shipment.totalWeight is ${shipment.totalWeight}` });
  }
  const linesTotal = sum(values);
  const invoiceTotal = num(declaration.commercialInvoice?.totalValue, 'exportDeclaration.commercialInvoice.totalValue');
  if (compare(linesTotal, invoiceTotal) !== 0) {
    warnings.push({ code: 'VALUE_MISMATCH', message: `the lines' customs values total ${toNumber(linesTotal)} ${declaration.currencyCode} but commercialInvoice.totalValue is ${declaration.commercialInvoice.totalValue}` });
  }
  for (const code of bondedCodes) {
    if (!lines.some((l) => l.productCode === code)) {
      warnings.push({ code: 'UNKNOWN_BONDED_PRODUCT', message: `bonded product code ${code} is not in shipment ${shipment.trackingNumber}` });
    }
  }

  const decision = exportDeclarationRequired({
    dispatchCountryCode: declaration.dispatchCountryCode,
    destinationCountryCode: declaration.destinationCountryCode,
    dispatchPostalCode: options.dispatchPostalCode,
    destinationPostalCode: options.destinationPostalCode,
    currencyCode: declaration.currencyCode,
    eurExchangeRate: options.eurExchangeRate,
    lines: lines.map((l) => ({ value: l.customsValue, bonded: l.bonded })),
  });
  return {
    ...decision,
    trackingNumber: shipment.trackingNumber,
    currencyCode: declaration.currencyCode,
    weightUnit: shipment.weightUnit,
    lines,
    linesTotalValue: toNumber(linesTotal),
    linesNetWeight: toNumber(sum(netWeights)),
    warnings,
  };
}
