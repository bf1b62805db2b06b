import { readFileSync } from 'node:fs';
import { type ShipmentInformation } from 'crossborder-merchant-kit';
import { exportDeclarationForShipment } from 'crossborder-merchant-kit/customs';

const fixture = (): ShipmentInformation => JSON.parse(readFileSync(new URL('../fixtures/service/shipment-information.json', import.meta.url), 'utf8'));

/** The fixture shipped from an EU hub (it ships GB → CH). */
const fromEu = (change: (i: ShipmentInformation) => void = () => {}): ShipmentInformation => {
  const info = fixture();
  info.exportDeclaration.dispatchCountryCode = 'DE';
  change(info);
  return info;
};

describe('exportDeclarationForShipment', () => {
  test('declaration lines: value = unit value × quantity, net weight = unit net weight × quantity, exact', () => {
    const d = exportDeclarationForShipment(fromEu());
    expect(d.lines).toEqual([
      {
        orderId: 'GE927127SE', parcelTrackingNumber: '1Z999AA10123456784', productCode: 'TSHIRT-BLU-M', productName: 'Organic cotton T-shirt',
        originCountryCode: 'PT', exportHsCode: '61091000', importHsCode: '6109100010', quantity: 2, bonded: false,
        unitCustomsValue: 22.68, customsValue: 45.36, unitNetWeight: 0.165, netWeight: 0.33, unitGrossWeight: 0.18,
      },
      {
        orderId: 'GE927127SE', parcelTrackingNumber: '1Z999AA10123456784', productCode: 'MUG-CER-350', productName: 'Ceramic mug 350 ml',
        originCountryCode: 'DE', exportHsCode: '69120021', importHsCode: '6912002100', quantity: 1, bonded: false,
        unitCustomsValue: 0, customsValue: 0, unitNetWeight: 0.42, netWeight: 0.42, unitGrossWeight: 0.42,
      },
    ]);
    expect(d).toMatchObject({
      trackingNumber: '1Z999AA10123456784', currencyCode: 'EUR', weightUnit: 'kg', linesTotalValue: 45.36, linesNetWeight: 0.75,
      required: false, reason: 'FREE_CIRCULATION_BELOW_THRESHOLD', leavesCustomsTerritory: true, freeCirculationTotalEur: 45.36, warnings: [],
    });
  });

  test('products are multiplied without binary rounding error (0.1 × 3 is 0.3, 19.99 × 3 is 59.97)', () => {
    const d = exportDeclarationForShipment(fromEu((i) => {
      Object.assign(i.shipment.parcels[0].products[0], { quantity: 3, productNetWeight: 0.1, discountedPriceForCustomsInClearanceCurrency: 19.99 });
      i.exportDeclaration.commercialInvoice.totalValue = 59.97;
    }));
    expect(d.lines[0]).toMatchObject({ customsValue: 59.97, netWeight: 0.3 });
    expect(d.linesNetWeight).toBe(0.72);
    expect(d.warnings).toEqual([]);
  });

  test('the merchant\'s bonded product codes make it required; an unknown bonded code is a warning', () => {
    const d = exportDeclarationForShipment(fromEu(), { bondedProductCodes: new Set(['MUG-CER-350', 'NOPE']) });
    expect(d.lines.map((l) => l.bonded)).toEqual([false, true]);
    expect(d).toMatchObject({ required: true, reason: 'BONDED_GOODS', freeCirculationTotalEur: 45.36 });
    expect(d.warnings).toEqual([{ code: 'UNKNOWN_BONDED_PRODUCT', message: expect.stringContaining('NOPE') }]);
  });

  test('EUR 1,000 of free-circulation goods leaving the territory is required; staying inside is not', () => {
    const big = (dest: string) => exportDeclarationForShipment(fromEu((i) => {
      i.shipment.parcels[0].products[0].discountedPriceForCustomsInClearanceCurrency = 500;
      i.exportDeclaration.commercialInvoice.totalValue = 1000;
      i.exportDeclaration.destinationCountryCode = dest;
    }));
    expect(big('CH')).toMatchObject({ required: true, reason: 'FREE_CIRCULATION_AT_OR_ABOVE_THRESHOLD', freeCirculationTotalEur: 1000 });
    expect(big('AT')).toMatchObject({ required: false, reason: 'NOT_LEAVING_CUSTOMS_TERRITORY' });
  });

  test('the destination postal code splits a country (Heligoland); the rate converts other currencies', () => {
    const info = fromEu((i) => { i.exportDeclaration.destinationCountryCode = 'DE'; });
    expect(exportDeclarationForShipment(info).leavesCustomsTerritory).toBe(false);
    expect(exportDeclarationForShipment(info, { destinationPostalCode: '27498' }).leavesCustomsTerritory).toBe(true);
    const chf = fromEu((i) => { i.exportDeclaration.currencyCode = 'CHF'; });
    expect(() => exportDeclarationForShipment(chf)).toThrow(/eurExchangeRate is required for currencyCode CHF/);
    expect(exportDeclarationForShipment(chf, { eurExchangeRate: 1.0625 }).freeCirculationTotalEur).toBe(48.2);   // 48.195 → 48.20
  });

  test('reconciliation warnings: parcel weights vs totalWeight, line values vs commercialInvoice.totalValue', () => {
    const d = exportDeclarationForShipment(fromEu((i) => {
      i.shipment.totalWeight = 0.9;
      i.exportDeclaration.commercialInvoice.totalValue = 45.37;
    }));
    expect(d.warnings.map((w) => w.code)).toEqual(['WEIGHT_MISMATCH', 'VALUE_MISMATCH']);
    expect(d.warnings[0].message).toContain('0.82 kg');
    expect(d.warnings[1].message).toContain('45.36 EUR');
    const sums = exportDeclarationForShipment(fromEu((i) => {
      i.shipment.parcels.push({ ...i.shipment.parcels[0], parcelWeight: 0.1 });
      i.shipment.parcels[0].parcelWeight = 0.2;
      i.shipment.totalWeight = 0.3;   // 0.2 + 0.1 in floating point is 0.30000000000000004
      i.exportDeclaration.commercialInvoice.totalValue = 90.72;
    }));
    expect(sums.warnings).toEqual([]);
    expect(sums.lines).toHaveLength(4);
  });

  test('input that is not a ShipmentInformation is ERR_CBK_INVALID_ARGUMENT', () => {
    expect(() => exportDeclarationForShipment({} as never)).toThrow(/expected a ShipmentInformation/);
    expect(() => exportDeclarationForShipment(fromEu((i) => { i.shipment.parcels[0].products[0].quantity = 0; }))).toThrow(/quantity must be an integer >= 1/);
    expect(() => exportDeclarationForShipment(fromEu((i) => { (i.shipment.parcels[0].products[0] as any).productNetWeight = '1'; }))).toThrow(/productNetWeight/);
  });
});
