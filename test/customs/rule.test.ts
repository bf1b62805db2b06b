import { KitError } from 'crossborder-merchant-kit';
import { EXPORT_DECLARATION_THRESHOLD_EUR, exportDeclarationRequired, type ExportDeclarationInput } from 'crossborder-merchant-kit/customs';

const input = (overrides: Partial<ExportDeclarationInput> = {}): ExportDeclarationInput => ({
  dispatchCountryCode: 'DE', destinationCountryCode: 'CH', currencyCode: 'EUR', lines: [{ value: 100 }], ...overrides,
});

describe('exportDeclarationRequired', () => {
  test('the threshold is EUR 1,000', () => {
    expect(EXPORT_DECLARATION_THRESHOLD_EUR).toBe(1000);
  });

  test('leaving the customs territory below EUR 1,000 without bonded goods: not required', () => {
    expect(exportDeclarationRequired(input({ lines: [{ value: 999.99 }] }))).toMatchObject({
      required: false, reason: 'FREE_CIRCULATION_BELOW_THRESHOLD', leavesCustomsTerritory: true, freeCirculationTotalEur: 999.99,
    });
  });

  test('exactly EUR 1,000.00 is required; three lines of 333.33, 333.33 and 333.34 total exactly 1,000.00', () => {
    const d = exportDeclarationRequired(input({ lines: [{ value: 333.33 }, { value: 333.33 }, { value: 333.34 }] }));
    expect(d).toMatchObject({ required: true, reason: 'FREE_CIRCULATION_AT_OR_ABOVE_THRESHOLD', freeCirculationTotalEur: 1000 });
    // Plain floating-point addition gives 2.53 + 790.55 + 206.92 = 999.9999999999999: the sum here is exact.
    expect(2.53 + 790.55 + 206.92).toBeLessThan(1000);
    expect(exportDeclarationRequired(input({ lines: [{ value: 2.53 }, { value: 790.55 }, { value: 206.92 }] })))
      .toMatchObject({ required: true, freeCirculationTotalEur: 1000 });
    const tenths = Array.from({ length: 10_000 }, () => ({ value: 0.1 }));
    expect(exportDeclarationRequired(input({ lines: tenths }))).toMatchObject({ required: true, freeCirculationTotalEur: 1000 });
  });

  test('any bonded line makes it required when leaving, whatever the value; bonded lines do not count towards the total', () => {
    const d = exportDeclarationRequired(input({ lines: [{ value: 0, bonded: true }, { value: 5 }] }));
    expect(d).toMatchObject({ required: true, reason: 'BONDED_GOODS', freeCirculationTotalEur: 5 });
    const big = exportDeclarationRequired(input({ lines: [{ value: 5000, bonded: true }, { value: 999 }] }));
    expect(big).toMatchObject({ required: true, reason: 'BONDED_GOODS', freeCirculationTotalEur: 999 });
    expect(exportDeclarationRequired(input({ lines: [{ value: 5000, bonded: false }] })).reason).toBe('FREE_CIRCULATION_AT_OR_ABOVE_THRESHOLD');
  });

  test('a shipment that stays inside the customs territory never needs one, bonded or not', () => {
    const d = exportDeclarationRequired(input({ destinationCountryCode: 'FR', lines: [{ value: 50_000 }, { value: 1, bonded: true }] }));
    expect(d).toMatchObject({ required: false, reason: 'NOT_LEAVING_CUSTOMS_TERRITORY', leavesCustomsTerritory: false, freeCirculationTotalEur: 50_000 });
  });

  test('goods dispatched from outside the customs territory do not leave it', () => {
    const d = exportDeclarationRequired(input({ dispatchCountryCode: 'GB', destinationCountryCode: 'CH', lines: [{ value: 5000 }] }));
    expect(d).toMatchObject({ required: false, leavesCustomsTerritory: false });
    expect(exportDeclarationRequired(input({ dispatchCountryCode: 'DE', dispatchPostalCode: '27498', lines: [{ value: 5000 }] })).required).toBe(false);
  });

  test('another currency is converted with the given rate (EUR per unit) and rounded to the cent before the comparison', () => {
    const chf = (value: number, rate: number) => exportDeclarationRequired(input({ currencyCode: 'chf', eurExchangeRate: rate, lines: [{ value }] }));
    expect(chf(1000, 1.0625)).toMatchObject({ required: true, freeCirculationTotalEur: 1062.5 });
    expect(chf(941.17, 1.0625)).toMatchObject({ required: false, freeCirculationTotalEur: 999.99 });
    expect(chf(941.18, 1.0625)).toMatchObject({ required: true, freeCirculationTotalEur: 1000 });   // 1000.00375
    expect(chf(941.175, 1.0625)).toMatchObject({ required: true, freeCirculationTotalEur: 1000 });   // 999.9984375 → 1000.00
    const jpy = (value: number) => exportDeclarationRequired(input({ currencyCode: 'JPY', eurExchangeRate: 0.0061, lines: [{ value }] }));
    expect(jpy(163_933)).toMatchObject({ required: false, freeCirculationTotalEur: 999.99 });   // 999.9913
    expect(jpy(163_935)).toMatchObject({ required: true, freeCirculationTotalEur: 1000 });      // 1000.0035
  });

  test('a currency other than EUR without a rate is an error, never a guess', () => {
    expect(() => exportDeclarationRequired(input({ currencyCode: 'USD' }))).toThrow(/eurExchangeRate is required for currencyCode USD/);
    try {
      exportDeclarationRequired(input({ currencyCode: 'USD' }));
    } catch (err) {
      expect(err).toBeInstanceOf(KitError);
      expect((err as KitError).code).toBe('ERR_CBK_INVALID_ARGUMENT');
    }
  });

  test.each([
    ['a bad country', { destinationCountryCode: 'CHE' }, /destinationCountryCode must be an ISO 3166-1 alpha-2/],
    ['a bad dispatch country', { dispatchCountryCode: 7 as never }, /dispatchCountryCode/],
    ['a bad currency', { currencyCode: 'EURO' }, /currencyCode must be an ISO 4217/],
    ['a zero rate', { currencyCode: 'USD', eurExchangeRate: 0 }, /eurExchangeRate must be a finite number > 0/],
    ['a NaN rate', { currencyCode: 'USD', eurExchangeRate: Number.NaN }, /eurExchangeRate must be a finite number > 0/],
    ['a rate other than 1 for EUR', { eurExchangeRate: 1.1 }, /must be 1 or left out/],
    ['lines not an array', { lines: {} as never }, /lines must be an array/],
    ['a negative value', { lines: [{ value: -1 }] }, /lines\[0\]\.value must be a finite number >= 0/],
    ['an infinite value', { lines: [{ value: Infinity }] }, /lines\[0\]\.value/],
    ['a string value', { lines: [{ value: '10' as never }] }, /lines\[0\]\.value/],
    ['a non-boolean bonded', { lines: [{ value: 1, bonded: 'yes' as never }] }, /lines\[0\]\.bonded must be a boolean/],
    ['a misspelt line key', { lines: [{ value: 1, bondend: true } as never] }, /lines\[0\]\.bondend; did you mean "lines\[0\]\.bonded"/],
    ['a postal code that is no string', { destinationPostalCode: 27498 as never }, /destinationPostalCode must be a string/],
  ])('%s is ERR_CBK_INVALID_ARGUMENT', (_name, overrides, message) => {
    expect(() => exportDeclarationRequired(input(overrides as Partial<ExportDeclarationInput>))).toThrow(message);
  });

  test('a misspelt input key gets a did-you-mean', () => {
    expect(() => exportDeclarationRequired({ ...input(), destinationPostcode: '1' } as never))
      .toThrow(/Unknown option destinationPostcode; did you mean "destinationPostalCode"/);
    expect(() => exportDeclarationRequired(null as never)).toThrow(/must be an object/);
  });

  test('an empty shipment and a rate of 1 for EUR are fine; the input is not changed', () => {
    const i = input({ lines: [], eurExchangeRate: 1, destinationCountryCode: 'ch' });
    const copy = JSON.parse(JSON.stringify(i));
    expect(exportDeclarationRequired(i)).toMatchObject({ required: false, freeCirculationTotalEur: 0 });
    expect(i).toEqual(copy);
  });
});
