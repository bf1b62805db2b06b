/**
 * The refund amounts as the client reads and writes them (lib/client/amount.ts): decimal text of at
 * most 15 whole digits and 6 places, nothing before or after it, a number as the text it prints as,
 * and exact sums and comparisons. Every refund decision of the guard (how much, more than paid) reads
 * its amounts here.
 */
import { amountText, moreThan, readAmount, sumAmounts } from '../../lib/client/amount.js';

const read = (v: unknown) => {
  const d = readAmount(v);
  return d === undefined ? undefined : amountText(d);
};

describe('readAmount', () => {
  test.each<[unknown, string]>([
    ['170.10', '170.10'], ['170.1', '170.10'], ['170.1000', '170.1000'], ['10', '10.00'], ['0', '0.00'], ['0.05', '0.05'],
    [' 10.00 ', '10.00'], ['\t7.5\n', '7.50'], ['123456789012345', '123456789012345.00'], ['1.123456', '1.123456'],
    [0, '0.00'], [0.1, '0.10'], [170.1, '170.10'], [12, '12.00'], [0.000001, '0.000001'],
  ])('%j is read as %s', (value, text) => {
    expect(read(value)).toBe(text);
  });

  test('its exact value: units and scale as written', () => {
    expect(readAmount('170.10')).toEqual({ units: 17010n, scale: 2 });
    expect(readAmount('42')).toEqual({ units: 42n, scale: 0 });
    expect(readAmount(0.25)).toEqual({ units: 25n, scale: 2 });
  });

  test.each<[string, unknown]>([
    ['text after the amount (the end anchor)', '10.00abc'],
    ['a second amount after it', '10.00 5'],
    ['text before the amount (the start anchor)', 'abc10.00'],
    ['a sign', '-5.00'], ['a plus sign', '+5.00'],
    ['16 whole digits', '1234567890123456'], ['7 places', '1.1234567'],
    ['a point without places', '10.'], ['places without a whole part', '.50'], ['a comma', '10,50'], ['two points', '1.2.3'],
    ['an exponent', '1e3'], ['empty text', ''], ['blanks', '   '], ['words', 'ten'],
    ['a negative number', -1], ['NaN', Number.NaN], ['Infinity', Number.POSITIVE_INFINITY], ['a number printed with an exponent', 1e21],
    ['a tiny number printed with an exponent', 1e-7],
    ['an array holding an amount', ['10']], ['an object', { toString: () => '10' }], ['a boolean', true], ['null', null], ['undefined', undefined],
  ])('%s is no amount', (_what, value) => {
    expect(readAmount(value)).toBeUndefined();
  });
});

describe('amountText', () => {
  test.each<[bigint, number, string]>([
    [17010n, 2, '170.10'], [1701n, 1, '170.10'], [170n, 0, '170.00'], [5n, 2, '0.05'], [5n, 3, '0.005'], [0n, 0, '0.00'], [1234567n, 4, '123.4567'],
  ])('%s / 10^%s is %s (at least two places, a leading zero)', (units, scale, text) => {
    expect(amountText({ units, scale })).toBe(text);
  });
});

describe('sums and comparisons, exact', () => {
  test('0.1 + 0.2 is 0.30, 333.33 + 333.33 + 333.34 is 1000.00, nothing is 0.00', () => {
    expect(amountText(sumAmounts([readAmount(0.1)!, readAmount(0.2)!]))).toBe('0.30');
    expect(amountText(sumAmounts(['333.33', '333.33', '333.34'].map((a) => readAmount(a)!)))).toBe('1000.00');
    expect(amountText(sumAmounts([]))).toBe('0.00');
  });

  test('moreThan: strictly more (an equal amount in another scale is not more)', () => {
    expect(moreThan(readAmount('200.01')!, readAmount('200')!)).toBe(true);
    expect(moreThan(readAmount('200.000')!, readAmount('200.00')!)).toBe(false);
    expect(moreThan(readAmount('199.99')!, readAmount('200')!)).toBe(false);
  });
});
