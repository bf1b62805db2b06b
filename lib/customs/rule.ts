/**
 * The export-declaration rule (spec, "Rule"): a declaration is required only when the shipment
 * leaves the EU customs territory AND it holds bonded goods or free-circulation goods worth
 * EUR 1,000 or more in total. Pure and synchronous.
 */
import { unknownKeyMessage } from '../shared/did-you-mean.js';
import { KitError } from '../shared/errors.js';
import { compare, roundTo, sum, times, toDecimal, toNumber, type Decimal } from '../shared/decimal.js';
import { customsTerritoryStatus, type TerritoryStatus } from './territory.js';

/** The free-circulation threshold, in EUR. */
export const EXPORT_DECLARATION_THRESHOLD_EUR = 1000;

/** One line of {@link ExportDeclarationInput}: its customs value and whether its goods are bonded. */
export interface ExportDeclarationLine {
  /** The line's customs value (unit value × quantity) in `currencyCode`; >= 0. */
  value: number;
  /** True for bonded goods (the service never returns this: it is the merchant's knowledge). */
  bonded?: boolean;
}

/**
 * What {@link exportDeclarationRequired} decides on: where the goods leave from and go to (country and,
 * for split countries, postal code), the currency of the values with its EUR rate, and the lines.
 */
export interface ExportDeclarationInput {
  /** ISO 3166-1 alpha-2 country the goods leave from (the dispatch hub's country). */
  dispatchCountryCode: string;
  /** ISO 3166-1 alpha-2 customs destination country. */
  destinationCountryCode: string;
  /** Postal code of the dispatch place; tells the parts of a split country apart. */
  dispatchPostalCode?: string;
  /** Postal code of the destination; tells the parts of a split country apart (e.g. DE 27498 Heligoland). */
  destinationPostalCode?: string;
  /** ISO 4217 currency of the line values. */
  currencyCode: string;
  /** EUR per 1 unit of `currencyCode`; required unless the currency is EUR. */
  eurExchangeRate?: number;
  lines: readonly ExportDeclarationLine[];
}

/**
 * Why a declaration is or is not required: the goods do not leave the EU customs territory, they hold
 * bonded goods, or the free-circulation total is at or above (or below) EUR 1,000.
 */
export type ExportDeclarationReason =
  | 'NOT_LEAVING_CUSTOMS_TERRITORY'
  | 'BONDED_GOODS'
  | 'FREE_CIRCULATION_AT_OR_ABOVE_THRESHOLD'
  | 'FREE_CIRCULATION_BELOW_THRESHOLD';

/**
 * What {@link exportDeclarationRequired} answers: `required`, the `reason`, whether the shipment leaves
 * the customs territory, the free-circulation total in EUR, and the territory status of both places.
 */
export interface ExportDeclarationDecision {
  required: boolean;
  reason: ExportDeclarationReason;
  /** True when the dispatch place is inside the EU customs territory and the destination is not. */
  leavesCustomsTerritory: boolean;
  /** Total of the non-bonded lines in EUR, rounded to the cent (half up); the threshold is compared with it. */
  freeCirculationTotalEur: number;
  dispatch: TerritoryStatus;
  destination: TerritoryStatus;
}

const KEYS = ['dispatchCountryCode', 'destinationCountryCode', 'dispatchPostalCode', 'destinationPostalCode', 'currencyCode', 'eurExchangeRate', 'lines'];
const LINE_KEYS = ['value', 'bonded'];

const invalid = (message: string): never => { throw new KitError('ERR_CBK_INVALID_ARGUMENT', `exportDeclarationRequired: ${message}`); };

function checkKeys(where: string, value: object, known: readonly string[]): void {
  for (const k of Object.keys(value)) if (!known.includes(k)) invalid(unknownKeyMessage(where, k, known));
}

function country(value: unknown, name: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value.trim())) invalid(`${name} must be an ISO 3166-1 alpha-2 code such as 'DE'`);
  return (value as string).trim().toUpperCase();
}

function postal(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return invalid(`${name} must be a string`);
  return value.trim() === '' ? undefined : value;
}

function amount(value: unknown, name: string): Decimal {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) invalid(`${name} must be a finite number >= 0`);
  return toDecimal(value as number);
}

/** The checked input: country codes upper-cased, rate resolved (1 for EUR). */
function checked(input: ExportDeclarationInput): { input: ExportDeclarationInput; rate: Decimal } {
  if (typeof input !== 'object' || input === null) invalid('the input must be an object');
  checkKeys('', input, KEYS);
  const currencyCode = typeof input.currencyCode === 'string' ? input.currencyCode.trim().toUpperCase() : '';
  if (!/^[A-Z]{3}$/.test(currencyCode)) invalid("currencyCode must be an ISO 4217 code such as 'EUR'");
  const r = input.eurExchangeRate;
  if (r !== undefined && (typeof r !== 'number' || !Number.isFinite(r) || r <= 0)) invalid('eurExchangeRate must be a finite number > 0 (EUR per 1 unit of currencyCode)');
  if (currencyCode === 'EUR' && r !== undefined && r !== 1) invalid('eurExchangeRate must be 1 or left out when currencyCode is EUR');
  if (currencyCode !== 'EUR' && r === undefined) {
    invalid(`eurExchangeRate is required for currencyCode ${currencyCode}: give the EUR value of 1 ${currencyCode} (the kit never guesses a rate)`);
  }
  if (!Array.isArray(input.lines)) invalid('lines must be an array of { value, bonded? }');
  input.lines.forEach((line, i) => {
    if (typeof line !== 'object' || line === null) invalid(`lines[${i}] must be an object { value, bonded? }`);
    checkKeys(`lines[${i}].`, line, LINE_KEYS);
    amount(line.value, `lines[${i}].value`);
    if (line.bonded !== undefined && typeof line.bonded !== 'boolean') invalid(`lines[${i}].bonded must be a boolean`);
  });
  return {
    input: {
      ...input,
      currencyCode,
      dispatchCountryCode: country(input.dispatchCountryCode, 'dispatchCountryCode'),
      destinationCountryCode: country(input.destinationCountryCode, 'destinationCountryCode'),
      dispatchPostalCode: postal(input.dispatchPostalCode, 'dispatchPostalCode'),
      destinationPostalCode: postal(input.destinationPostalCode, 'destinationPostalCode'),
    },
    rate: toDecimal(r ?? 1),
  };
}

/** Decides whether a shipment needs an export declaration (see docs/export-declaration.md). */
export function exportDeclarationRequired(input: ExportDeclarationInput): ExportDeclarationDecision {
  const { input: i, rate } = checked(input);
  const dispatch = customsTerritoryStatus(i.dispatchCountryCode, i.dispatchPostalCode);
  const destination = customsTerritoryStatus(i.destinationCountryCode, i.destinationPostalCode);
  const leavesCustomsTerritory = dispatch.inside && !destination.inside;
  const bonded = i.lines.some((l) => l.bonded === true);
  const free = sum(i.lines.filter((l) => l.bonded !== true).map((l) => toDecimal(l.value)));
  const eur = roundTo(times(free, rate), 2);
  const atThreshold = compare(eur, toDecimal(EXPORT_DECLARATION_THRESHOLD_EUR)) >= 0;
  const reason: ExportDeclarationReason = !leavesCustomsTerritory ? 'NOT_LEAVING_CUSTOMS_TERRITORY'
    : bonded ? 'BONDED_GOODS'
      : atThreshold ? 'FREE_CIRCULATION_AT_OR_ABOVE_THRESHOLD' : 'FREE_CIRCULATION_BELOW_THRESHOLD';
  return {
    required: leavesCustomsTerritory && (bonded || atThreshold),
    reason,
    leavesCustomsTerritory,
    freeCirculationTotalEur: toNumber(eur),
    dispatch,
    destination,
  };
}
