/** The shared decimal module: the operations local prices added (parse, divide, floor, truncate, text). */
import fc from 'fast-check';
import { compare, divide, floor, parseDecimal, subtract, times, toFixedText, toText, truncate } from '../../lib/shared/decimal.js';

const d = (s: string) => parseDecimal(s)!;

test('parseDecimal reads decimal text and numbers exactly, and nothing else', () => {
  expect(parseDecimal('170.10')).toEqual({ units: 17010n, scale: 2 });
  expect(parseDecimal('-0.5')).toEqual({ units: -5n, scale: 1 });
  expect(parseDecimal('1e3')).toEqual({ units: 1000n, scale: 0 });
  expect(parseDecimal(79228162514264337593543950335.0)).toEqual({ units: 79228162514264340000000000000n, scale: 0 });
  expect(parseDecimal(0.1)).toEqual({ units: 1n, scale: 1 });
  for (const bad of ['', 'abc', '1,5', '1.2.3', ' ', NaN, Infinity, null, undefined, {}]) expect(parseDecimal(bad)).toBeUndefined();
});

test('divide rounds half away from zero at the places asked; by zero is a RangeError', () => {
  expect(toText(divide(d('120'), d('1.2'), 2))).toBe('100');
  expect(toFixedText(divide(d('19.99'), d('1.2'), 4), 4)).toBe('16.6583');
  expect(toFixedText(divide(d('1'), d('8'), 2), 2)).toBe('0.13');
  expect(toFixedText(divide(d('-1'), d('8'), 2), 2)).toBe('-0.13');
  expect(toFixedText(divide(d('1'), d('-3'), 3), 3)).toBe('-0.333');
  expect(() => divide(d('1'), d('0'), 2)).toThrow(RangeError);
});

test('floor goes toward −∞; truncate toward zero', () => {
  expect([floor(d('12.99')), floor(d('-12.01')), floor(d('-12')), floor(d('12'))].map(toText)).toEqual(['12', '-13', '-12', '12']);
  expect([truncate(d('1.999'), 2), truncate(d('-1.999'), 2), truncate(d('1.5'), 3)].map(toText)).toEqual(['1.99', '-1.99', '1.5']);
});

test('toFixedText pads or rounds to exactly the places; toText has no trailing zeros', () => {
  expect([toFixedText(d('12.5'), 2), toFixedText(d('12.345'), 2), toFixedText(d('0.005'), 2), toFixedText(d('235.4'), 0), toFixedText(d('-0.4'), 0)])
    .toEqual(['12.50', '12.35', '0.01', '235', '0']);
  expect([toText(d('12.500')), toText(d('100')), toText(d('0.0'))]).toEqual(['12.5', '100', '0']);
});

test('a quotient is within half a unit of its last place: |(x / y) · y − x| ≤ y · 0.5e-12', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 1, max: 10 ** 6 }), (a, b) => {
    const x = { units: BigInt(a), scale: 2 };
    const y = { units: BigInt(b), scale: 3 };
    const back = times(divide(x, y, 12), y);
    const diff = subtract(back, x);
    const abs = { units: diff.units < 0n ? -diff.units : diff.units, scale: diff.scale };
    return compare(abs, times(y, { units: 5n, scale: 13 })) <= 0;
  }));
});
