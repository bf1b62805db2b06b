/**
 * The card mask of a delivery (createCardMask, lib/core/card-data.ts): which values of the request it
 * hides in reply texts and log lines, in which spellings. Written against mutation testing
 * (docs/safety-tests.md): the length boundary, separators, values with letters, the CVV's bounds,
 * the order of alternatives (a card number wins over a shorter card or a CVV inside it), every
 * occurrence, and the pattern handed to the logger.
 */
import { createCardMask, MIN_CARD_DIGITS } from '../../lib/core/card-data.js';

const R = '[REDACTED]';
const mask = (cards: string[], cvvs: string[] = []) => {
  const m = createCardMask(cards, cvvs);
  if (!m) throw new Error('expected a mask');
  return m;
};

describe('card numbers', () => {
  test(`exactly ${MIN_CARD_DIGITS} digits is a card number and is masked; one digit fewer is not`, () => {
    expect(MIN_CARD_DIGITS).toBe(8);
    expect(mask(['12345678'])('card 12345678 ok')).toBe(`card ${R} ok`);
    expect(createCardMask(['1234567'], [])).toBeUndefined();
  });

  test.each([
    ['bare', '4111111111111111'],
    ['spaces', '4111 1111 1111 1111'],
    ['dashes', '4111-1111-1111-1111'],
    ['dots', '4111.1111.1111.1111'],
    ['pairs', '41 11 11 11 11 11 11 11'],
    ['a tab and several spaces', '4111\t1111  1111 1111'],
  ])('sent bare, echoed with %s: masked', (_name, echoed) => {
    expect(mask(['4111111111111111'])(`charged ${echoed}.`)).toBe(`charged ${R}.`);
  });

  test('sent with spaces, echoed bare: masked (the digits count, not the spelling)', () => {
    expect(mask(['4111 1111 1111 1111'])('x4111111111111111x')).toBe(`x${R}x`);
  });

  test('every occurrence is masked, not only the first', () => {
    expect(mask(['4111111111111111'])('4111111111111111 and 4111-1111-1111-1111')).toBe(`${R} and ${R}`);
  });

  test('other digits and other numbers are left alone', () => {
    expect(mask(['4111111111111111'])('order GE1001 total 4111.11, card 5500000000000004')).toBe('order GE1001 total 4111.11, card 5500000000000004');
  });

  test('a longer card number wins over a shorter one that is its prefix, whatever their order', () => {
    expect(mask(['12345678', '1234567890123456'])('n=1234567890123456;')).toBe(`n=${R};`);
    expect(mask(['1234567890123456', '12345678'])('n=1234567890123456;')).toBe(`n=${R};`);
  });
});

describe('values with other characters (masked as written too)', () => {
  test('a value with letters is masked as written (trimmed), with its digits', () => {
    const m = mask([' CARD-4111-1111-1111-1111 ']);
    expect(m('got CARD-4111-1111-1111-1111!')).toBe(`got ${R}!`);
    expect(m('got 4111 1111 1111 1111!')).toBe(`got ${R}!`);
  });

  test(`at least ${MIN_CARD_DIGITS} characters once trimmed: masked; shorter (even with spaces around) is not a card`, () => {
    expect(mask(['x1234567'])('ref:x1234567.')).toBe(`ref:${R}.`);
    expect(createCardMask(['x123456'], [])).toBeUndefined();
    expect(createCardMask(['  x123456  '], [])).toBeUndefined();
    expect(createCardMask(['ab'], [])).toBeUndefined();
  });

  test('a value without any digit (a token) is masked as written', () => {
    expect(mask(['tok_AbCdEfGh'])('token tok_AbCdEfGh used')).toBe(`token ${R} used`);
  });

  test('regular-expression characters in the value are literal', () => {
    const m = mask(['tok+12*34(56)78|9?']);
    expect(m('a tok+12*34(56)78|9? b')).toBe(`a ${R} b`);
    expect(m('a tokk12234(56)78 b')).toBe('a tokk12234(56)78 b');
  });

  test('a value of digits and separators only is not also required as written', () => {
    // Its digits pattern already covers it; what is masked is the same.
    expect(mask(['4111-1111-1111-1111'])('4111 1111 1111 1111')).toBe(R);
  });
});

describe('CVV', () => {
  test.each(['123', '1234', ' 123 '])('a CVV of 3 or 4 digits (%p) is masked standing alone', (cvv) => {
    const m = mask([], [cvv]);
    expect(m(`cvv ${cvv.trim()} ok`)).toBe(`cvv ${R} ok`);
    expect(m(`cvv:${cvv.trim()}`)).toBe(`cvv:${R}`);
  });

  test('inside a longer number it is left alone (an amount, a timestamp)', () => {
    expect(mask([], ['123'])('at 51234, 1230 and 0123; cvv 123')).toBe(`at 51234, 1230 and 0123; cvv ${R}`);
  });

  test.each(['12', '12345', 'a123', '123a', '1 23', ''])('not a CVV (%p): nothing to mask', (cvv) => {
    expect(createCardMask([], [cvv])).toBeUndefined();
  });

  test('a card number wins over the CVV at the same position', () => {
    expect(mask(['1234567890123456'], ['123'])('1234 5678 9012 3456')).toBe(R);
  });
});

describe('the mask itself', () => {
  test('no card and no CVV: no mask at all', () => {
    expect(createCardMask([], [])).toBeUndefined();
  });

  test('its pattern (for the logger) is global and matches every spelling', () => {
    const m = mask(['4111111111111111'], ['737']);
    expect(m.pattern).toBeInstanceOf(RegExp);
    expect(m.pattern.flags).toContain('g');
    expect('a 4111 1111 1111 1111 b 737 c'.replace(m.pattern, R)).toBe(`a ${R} b ${R} c`);
  });
});
