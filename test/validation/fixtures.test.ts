/** Every valid fixture passes its schemas; every invalid variant fails at the intended location for the intended rule. */
import { validatePayload } from '../../lib/validation/index.js';
import { at, fixture, NESTED_FIXTURES, VALID_FIXTURES } from '../fixtures/index.js';
import { CALLBACK_VARIANTS, RESOURCE_VARIANTS, variantPayload } from '../fixtures/invalid.js';

describe('valid fixtures', () => {
  const cases = VALID_FIXTURES.flatMap(([file, types]) => types.map((type) => [file, type] as const));
  test.each(cases)('%s is a valid %s', (file, type) => {
    expect(validatePayload(type, fixture(file))).toBeNull();
  });

  test.each(NESTED_FIXTURES)('%s: %s at "%s" is valid', (type, file, pointer) => {
    const value = type === 'MerchantOrderEnvelope' ? { order: fixture(file), MerchantGUID: 'x' } : at(fixture(file), pointer);
    expect(value).toBeDefined();
    expect(validatePayload(type, value)).toBeNull();
  });
});

describe('invalid variants', () => {
  test.each([...CALLBACK_VARIANTS, ...RESOURCE_VARIANTS].map((v) => [v.name, v] as const))('%s', (_name, variant) => {
    expect(validatePayload(variant.type, fixture(variant.file))).toBeNull();
    expect(validatePayload(variant.type, variantPayload(variant))).toEqual([variant.expect]);
  });
});
