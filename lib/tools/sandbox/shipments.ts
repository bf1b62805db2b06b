/**
 * getShipmentInformation over the seed: the ShipmentInformation of a complete shipment, or why it
 * is incomplete (the service answers 409 SHIPMENT_CONFIGURATION_INCOMPLETE, never partial data).
 */
import type { SeedShipment } from './seed.js';

const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places;

export type ShipmentReadResult =
  | { ok: true; information: Record<string, unknown> }
  | { ok: false; missing: string };

export function readShipment(s: SeedShipment): ShipmentReadResult {
  if (!s.exporter.eoriNumber) return { ok: false, missing: 'the exporter EORI number' };
  const noCode = s.products.find((p) => !p.exportHsCode);
  if (noCode) return { ok: false, missing: `the export commodity code of ${noCode.productCode}` };
  const noValue = s.products.find((p) => typeof p.customsValue !== 'number');
  if (noValue) return { ok: false, missing: `the customs value of ${noValue.productCode}` };
  const currencies = [...new Set(s.currencyCodes)];
  if (currencies.length !== 1) return { ok: false, missing: `a single clearance currency (the lines are in ${currencies.join(', ') || 'none'})` };
  const parcelWeight = s.parcelWeight ?? round(s.products.reduce((sum, p) => sum + p.productWeight * p.quantity, 0), 3);
  const { exporter } = s;
  return {
    ok: true,
    information: {
      shipment: {
        trackingNumber: s.trackingNumber, weightUnit: s.weightUnit, totalWeight: parcelWeight,
        parcels: [{
          parcelTrackingNumber: s.trackingNumber, orderId: s.orderId, parcelWeight,
          products: s.products.map((p) => ({
            productCode: p.productCode, productName: p.productName, originCountryCode: p.originCountryCode, quantity: p.quantity,
            productNetWeight: p.productNetWeight, productWeight: p.productWeight, exportHsCode: p.exportHsCode,
            importHsCode: p.importHsCode, discountedPriceForCustomsInClearanceCurrency: p.customsValue,
          })),
        }],
      },
      exportDeclaration: {
        dispatchCountryCode: s.dispatchCountryCode, destinationCountryCode: s.destinationCountryCode, currencyCode: currencies[0],
        incoterm: s.incoterm,
        exporter: {
          name: exporter.name, eoriNumber: exporter.eoriNumber,
          ...(exporter.vatRegistrationNumber ? { vatRegistrationNumber: exporter.vatRegistrationNumber } : {}),
          address1: exporter.address1, ...(exporter.address2 ? { address2: exporter.address2 } : {}),
          city: exporter.city, postalCode: exporter.postalCode, countryCode: exporter.countryCode,
        },
        commercialInvoice: {
          number: s.commercialInvoice.number, date: s.commercialInvoice.date,
          totalValue: round(s.products.reduce((sum, p) => sum + (p.customsValue as number) * p.quantity, 0)),
        },
      },
    },
  };
}
