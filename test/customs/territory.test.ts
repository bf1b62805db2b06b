/**
 * Every entry of the EU customs-territory table, checked against expectations written out here
 * independently of the table (Regulation (EU) No 952/2013, Art. 4, as amended by 2019/474).
 */
import { CUSTOMS_TERRITORY, customsTerritoryStatus, exportDeclarationRequired, normalisePostalCode } from 'crossborder-merchant-kit/customs';

/** Country code → inside the Union's customs territory (outside its postal-code rules). */
const EXPECTED: Record<string, boolean> = {
  AT: true, BE: true, BG: true, HR: true, CY: true, CZ: true, DK: true, EE: true, FI: true, FR: true, DE: true, GR: true,
  HU: true, IE: true, IT: true, LV: true, LT: true, LU: true, MT: true, NL: true, PL: true, PT: true, RO: true, SK: true,
  SI: true, ES: true, SE: true,
  AX: true, GP: true, GF: true, MQ: true, RE: true, YT: true, MF: true, MC: true,
  FO: false, GL: false, BL: false, PM: false, TF: false, WF: false, PF: false, NC: false,
  AW: false, CW: false, SX: false, BQ: false,
  EL: true, IC: true, EA: false, XI: true, GB: false,
};

/** `${country} ${postal code}` → inside. */
const EXPECTED_POSTAL: Record<string, boolean> = {
  'DK 3900': false, 'DK 100': false,
  'FR 97133': false, 'FR 97500': false, 'FR 98404': false, 'FR 98600': false, 'FR 98714': false, 'FR 98800': false,
  'FR 97150': true, 'FR 98000': true,
  'DE 27498': false, 'DE 78266': false,
  'IT 23041': false, 'IT 22061': true,
  'ES 51001': false, 'ES 52001': false,
  'GB BT1 1AA': true,
};

const leaves = (destinationCountryCode: string, destinationPostalCode?: string) => exportDeclarationRequired({
  dispatchCountryCode: 'NL', destinationCountryCode, destinationPostalCode, currencyCode: 'EUR', lines: [{ value: 1000 }],
});

describe('the EU customs-territory table', () => {
  test('lists exactly the expected countries, each once, each with a source', () => {
    const codes = CUSTOMS_TERRITORY.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const e of CUSTOMS_TERRITORY) expect(e.source).toMatch(/Regulation \(EU\)|Withdrawal Agreement|Windsor Framework/);
  });

  test.each(Object.entries(EXPECTED))('%s: inside = %s; a EUR 1,000 shipment from NL needs a declaration exactly when it is outside', (code, inside) => {
    expect(customsTerritoryStatus(code).inside).toBe(inside);
    expect(customsTerritoryStatus(code.toLowerCase()).inside).toBe(inside);
    const d = leaves(code);
    expect(d.leavesCustomsTerritory).toBe(!inside);
    expect(d.required).toBe(!inside);
  });

  test('every postal-code rule of the table has an expectation, and its example matches it', () => {
    const rules = CUSTOMS_TERRITORY.flatMap((e) => (e.postalCodes ?? []).map((r) => ({ key: `${e.code} ${r.example}`, rule: r })));
    expect(rules.map((r) => r.key).sort()).toEqual(Object.keys(EXPECTED_POSTAL).sort());
    for (const { rule } of rules) expect(rule.source).toMatch(/Regulation \(EU\)|Windsor Framework/);
  });

  test.each(Object.entries(EXPECTED_POSTAL))('%s: inside = %s', (key, inside) => {
    const [country, ...postal] = key.split(' ');
    const status = customsTerritoryStatus(country, postal.join(' '));
    expect(status.inside).toBe(inside);
    expect(status.assumed).toBe(false);
    expect(leaves(country, postal.join(' ')).leavesCustomsTerritory).toBe(!inside);
  });

  test('the named cases of the issue', () => {
    expect(leaves('MC').required).toBe(false);
    expect(leaves('FO').required).toBe(true);
    expect(leaves('GL').required).toBe(true);
    expect(leaves('PF').required).toBe(true);
    expect(leaves('CW').required).toBe(true);
    expect(leaves('RE').required).toBe(false);
    expect(leaves('AX').required).toBe(false);
    expect(leaves('IT', '22061').required).toBe(false);   // Campione d'Italia: inside since 1 January 2020
    expect(leaves('IT', '23041').required).toBe(true);    // Livigno
    expect(leaves('DE', '27498').required).toBe(true);    // Heligoland
    expect(leaves('DE', '78266').required).toBe(true);    // Büsingen
    expect(leaves('ES', '51001').required).toBe(true);    // Ceuta
    expect(leaves('ES', '52006').required).toBe(true);    // Melilla
    expect(leaves('ES', '35001').required).toBe(false);   // Canary Islands: inside the customs territory
  });

  test('countries not in the table are outside (third countries and territories with a customs union of their own)', () => {
    for (const code of ['CH', 'NO', 'US', 'SM', 'AD', 'VA', 'LI', 'GI', 'JE', 'GG', 'IM', 'TR', 'IS']) {
      expect(customsTerritoryStatus(code)).toMatchObject({ inside: false, territory: 'third country', assumed: false });
    }
  });

  test('postal codes are normalised: case, spaces and a country prefix do not matter', () => {
    expect(normalisePostalCode(' d-78266 ')).toBe('78266');
    expect(normalisePostalCode('DE-27498')).toBe('27498');
    expect(normalisePostalCode('bt1 1aa')).toBe('BT11AA');
    expect(customsTerritoryStatus('DE', 'D-27498').inside).toBe(false);
    expect(customsTerritoryStatus('IT', 'I-23041').inside).toBe(false);
    expect(customsTerritoryStatus('ES', 'E-51001').inside).toBe(false);
    expect(customsTerritoryStatus('GB', 'bt7 1nn').inside).toBe(true);
  });

  test('a postal code that matches no rule gives the country status; other digits are not confused', () => {
    expect(customsTerritoryStatus('DE', '10115')).toMatchObject({ inside: true, assumed: false });
    expect(customsTerritoryStatus('DE', '274980').inside).toBe(true);
    expect(customsTerritoryStatus('ES', '28001').inside).toBe(true);
    expect(customsTerritoryStatus('ES', '5100').inside).toBe(true);
    expect(customsTerritoryStatus('GB', 'SW1A 1AA').inside).toBe(false);
    expect(customsTerritoryStatus('DK', '2100').inside).toBe(true);
  });

  test('without a postal code a split country is its main territory, flagged as assumed', () => {
    for (const [code, inside] of [['DE', true], ['IT', true], ['ES', true], ['FR', true], ['DK', true], ['GB', false]] as const) {
      expect(customsTerritoryStatus(code)).toMatchObject({ inside, assumed: true });
      expect(customsTerritoryStatus(code, '  ')).toMatchObject({ inside, assumed: true });
    }
    expect(customsTerritoryStatus('AT')).toMatchObject({ inside: true, assumed: false });
    expect(leaves('DE').destination.assumed).toBe(true);
  });
});
