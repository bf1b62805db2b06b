/**
 * The customs territory of the European Union, as DATA.
 *
 * Source: Regulation (EU) No 952/2013 (Union Customs Code), Article 4, as amended by Regulation (EU)
 * 2019/474 (OJ L 83, 25.3.2019, p. 38), which removed Campione d'Italia and the Italian waters of
 * Lake Lugano from the exclusions with effect from 1 January 2020 (they stay outside the VAT
 * territory only). Article 4(1) lists the member states' territories and their exclusions; Article
 * 4(2) adds Monaco (France) and the UK Sovereign Base Areas of Akrotiri and Dhekelia (Cyprus).
 * Northern Ireland: Union customs legislation applies to and in the United Kingdom in respect of
 * Northern Ireland (Windsor Framework, Protocol on Ireland/Northern Ireland, Article 5), so goods
 * moving there from the Union are not exported.
 *
 * The `source` texts paraphrase the provisions; they are not quotations.
 *
 * A country code that is not in this table is OUTSIDE the customs territory (for example CH, NO,
 * GB outside Northern Ireland, JE, GG, IM, GI, AD, SM, VA, LI, and every third country).
 * docs/export-declaration.md explains every entry; test/customs/territory.test.ts tests every entry.
 */

/** A part of a country told apart by its postal code. */
export interface PostalCodeRule {
  /** The part of the country, e.g. 'Heligoland'. */
  name: string;
  /** Matches the normalised postal code (upper case, no spaces, no country prefix such as 'D-'). */
  pattern: RegExp;
  /** Whether that part is inside the Union's customs territory. */
  inside: boolean;
  /** A postal code of the part, for the docs and tests. */
  example: string;
  /** The provision. */
  source: string;
}

/**
 * A country of {@link CUSTOMS_TERRITORY}: whether it is inside the Union's customs territory, the
 * provision that says so, and the parts of it told apart by postal code.
 */
export interface TerritoryEntry {
  /** ISO 3166-1 alpha-2 code (a few codes in common use in EU systems are noted as such). */
  code: string;
  name: string;
  /** Whether the country (outside its postal-code rules) is inside the Union's customs territory. */
  inside: boolean;
  /** The provision. */
  source: string;
  /** Parts of the country whose status differs (or is worth stating), told apart by postal code. */
  postalCodes?: readonly PostalCodeRule[];
}

const ART4_1 = 'Regulation (EU) No 952/2013, Art. 4(1)';
const ART4_2 = 'Regulation (EU) No 952/2013, Art. 4(2)';
const FR_OCT = `${ART4_1}: France, except the overseas countries and territories to which Part Four of the TFEU applies (TFEU Annex II)`;
const NL_CARIBBEAN = `${ART4_1}: the Netherlands; its Caribbean parts (Aruba, Bonaire, Curaçao, Saba, Sint Eustatius, Sint Maarten) are overseas countries and territories (TFEU Annex II) and outside`;
const DK_EXCEPT = `${ART4_1}: Denmark, except the Faroe Islands and Greenland`;
const WINDSOR = 'Windsor Framework (Protocol on Ireland/Northern Ireland), Art. 5: Union customs legislation applies in respect of Northern Ireland';

const member = (code: string, name: string, postalCodes?: readonly PostalCodeRule[]): TerritoryEntry =>
  ({ code, name, inside: true, source: `${ART4_1}: ${name}`, ...(postalCodes ? { postalCodes } : {}) });

/**
 * The Union's customs territory (Regulation (EU) No 952/2013, Art. 4, and the Windsor Framework): every
 * member state and the places in or outside it, with the postal-code rules of split countries (e.g. DE
 * Heligoland, ES Canary Islands). docs/export-declaration.md explains each entry.
 */
export const CUSTOMS_TERRITORY: readonly TerritoryEntry[] = [
  member('AT', 'Austria'),
  member('BE', 'Belgium'),
  member('BG', 'Bulgaria'),
  member('HR', 'Croatia'),
  { code: 'CY', name: 'Cyprus', inside: true, source: `${ART4_1}: Cyprus, in accordance with the 2003 Act of Accession; ${ART4_2}: Akrotiri and Dhekelia` },
  member('CZ', 'Czechia'),
  {
    code: 'DK', name: 'Denmark', inside: true, source: DK_EXCEPT,
    postalCodes: [
      { name: 'Greenland (Danish 39xx postal codes)', pattern: /^39\d\d$/, inside: false, example: '3900', source: DK_EXCEPT },
      { name: 'Faroe Islands (three-digit postal codes)', pattern: /^(FO)?\d{3}$/, inside: false, example: '100', source: DK_EXCEPT },
    ],
  },
  member('EE', 'Estonia'),
  member('FI', 'Finland (the Åland Islands included)'),
  {
    code: 'FR', name: 'France (Guadeloupe, French Guiana, Martinique, Réunion, Mayotte and Saint-Martin included)', inside: true,
    source: `${FR_OCT}; ${ART4_2}: Monaco`,
    postalCodes: [
      { name: 'Saint-Barthélemy', pattern: /^97133$/, inside: false, example: '97133', source: FR_OCT },
      { name: 'Saint-Pierre-et-Miquelon', pattern: /^975\d\d$/, inside: false, example: '97500', source: FR_OCT },
      { name: 'French Southern and Antarctic Lands', pattern: /^984\d\d$/, inside: false, example: '98404', source: FR_OCT },
      { name: 'Wallis and Futuna', pattern: /^986\d\d$/, inside: false, example: '98600', source: FR_OCT },
      { name: 'French Polynesia', pattern: /^987\d\d$/, inside: false, example: '98714', source: FR_OCT },
      { name: 'New Caledonia', pattern: /^988\d\d$/, inside: false, example: '98800', source: FR_OCT },
      { name: 'Saint-Martin (outermost region)', pattern: /^97150$/, inside: true, example: '97150', source: `${ART4_1}: France` },
      { name: 'Monaco', pattern: /^980\d\d$/, inside: true, example: '98000', source: `${ART4_2}: Monaco` },
    ],
  },
  {
    code: 'DE', name: 'Germany', inside: true,
    source: `${ART4_1}: Germany, except the Island of Heligoland and the territory of Büsingen`,
    postalCodes: [
      { name: 'Heligoland', pattern: /^27498$/, inside: false, example: '27498', source: `${ART4_1}: Germany, except the Island of Heligoland` },
      { name: 'Büsingen am Hochrhein', pattern: /^78266$/, inside: false, example: '78266', source: `${ART4_1}: Germany, except the territory of Büsingen` },
    ],
  },
  member('GR', 'Greece (Mount Athos included)'),
  member('HU', 'Hungary'),
  member('IE', 'Ireland'),
  {
    code: 'IT', name: 'Italy', inside: true,
    source: `${ART4_1} as amended by Regulation (EU) 2019/474: Italy, except the municipality of Livigno`,
    postalCodes: [
      { name: 'Livigno', pattern: /^23041$/, inside: false, example: '23041', source: `${ART4_1}: Italy, except the municipality of Livigno` },
      { name: "Campione d'Italia (inside since 1 January 2020)", pattern: /^22061$/, inside: true, example: '22061', source: 'Regulation (EU) 2019/474, Art. 1 (amending Art. 4(1) of Regulation (EU) No 952/2013)' },
    ],
  },
  member('LV', 'Latvia'),
  member('LT', 'Lithuania'),
  member('LU', 'Luxembourg'),
  member('MT', 'Malta'),
  { code: 'NL', name: 'Netherlands (in Europe)', inside: true, source: NL_CARIBBEAN },
  member('PL', 'Poland'),
  member('PT', 'Portugal (the Azores and Madeira included)'),
  member('RO', 'Romania'),
  member('SK', 'Slovakia'),
  member('SI', 'Slovenia'),
  {
    code: 'ES', name: 'Spain (the Canary Islands included)', inside: true,
    source: `${ART4_1}: Spain, except Ceuta and Melilla`,
    postalCodes: [
      { name: 'Ceuta', pattern: /^51\d{3}$/, inside: false, example: '51001', source: `${ART4_1}: Spain, except Ceuta` },
      { name: 'Melilla', pattern: /^52\d{3}$/, inside: false, example: '52001', source: `${ART4_1}: Spain, except Melilla` },
    ],
  },
  member('SE', 'Sweden'),
  // Territories with their own ISO 3166-1 code that belong to the customs territory.
  { code: 'AX', name: 'Åland Islands', inside: true, source: `${ART4_1}: Finland` },
  { code: 'GP', name: 'Guadeloupe', inside: true, source: `${ART4_1}: France (outermost region)` },
  { code: 'GF', name: 'French Guiana', inside: true, source: `${ART4_1}: France (outermost region)` },
  { code: 'MQ', name: 'Martinique', inside: true, source: `${ART4_1}: France (outermost region)` },
  { code: 'RE', name: 'Réunion', inside: true, source: `${ART4_1}: France (outermost region)` },
  { code: 'YT', name: 'Mayotte', inside: true, source: `${ART4_1}: France (outermost region)` },
  { code: 'MF', name: 'Saint-Martin (French part)', inside: true, source: `${ART4_1}: France (outermost region)` },
  { code: 'MC', name: 'Monaco', inside: true, source: `${ART4_2}: Monaco, as defined in the Customs Convention signed in Paris on 18 May 1963` },
  // Territories with their own ISO 3166-1 code that are expressly outside (listed so the docs and tests name them).
  { code: 'FO', name: 'Faroe Islands', inside: false, source: DK_EXCEPT },
  { code: 'GL', name: 'Greenland', inside: false, source: DK_EXCEPT },
  { code: 'BL', name: 'Saint-Barthélemy', inside: false, source: FR_OCT },
  { code: 'PM', name: 'Saint-Pierre-et-Miquelon', inside: false, source: FR_OCT },
  { code: 'TF', name: 'French Southern and Antarctic Lands', inside: false, source: FR_OCT },
  { code: 'WF', name: 'Wallis and Futuna', inside: false, source: FR_OCT },
  { code: 'PF', name: 'French Polynesia', inside: false, source: FR_OCT },
  { code: 'NC', name: 'New Caledonia', inside: false, source: FR_OCT },
  { code: 'AW', name: 'Aruba', inside: false, source: NL_CARIBBEAN },
  { code: 'CW', name: 'Curaçao', inside: false, source: NL_CARIBBEAN },
  { code: 'SX', name: 'Sint Maarten (Dutch part)', inside: false, source: NL_CARIBBEAN },
  { code: 'BQ', name: 'Bonaire, Sint Eustatius and Saba', inside: false, source: NL_CARIBBEAN },
  // Codes outside ISO 3166-1's assigned set that EU systems use.
  { code: 'EL', name: 'Greece (EU country code)', inside: true, source: `${ART4_1}: Greece` },
  { code: 'IC', name: 'Canary Islands (ISO 3166-1 exceptionally reserved code)', inside: true, source: `${ART4_1}: Spain` },
  { code: 'EA', name: 'Ceuta and Melilla (ISO 3166-1 exceptionally reserved code)', inside: false, source: `${ART4_1}: Spain, except Ceuta and Melilla` },
  { code: 'XI', name: 'Northern Ireland (EU code for Northern Ireland)', inside: true, source: WINDSOR },
  // The United Kingdom left the customs territory on 1 January 2021, except as above for Northern Ireland.
  {
    code: 'GB', name: 'United Kingdom (Great Britain)', inside: false,
    source: 'Withdrawal Agreement (OJ L 29, 31.1.2020): Great Britain is outside since 1 January 2021',
    postalCodes: [{ name: 'Northern Ireland', pattern: /^BT\d/, inside: true, example: 'BT1 1AA', source: WINDSOR }],
  },
];
