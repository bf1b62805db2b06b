/**
 * keyFieldsOf (lib/core/payload-rules.ts): the idempotency key's fields of a delivery, read with the
 * registry's own keyFields list (the parcel dispatch's optional `?` fields). What a merchant sees:
 * an optional key field absent, null, empty or blank is left out (no 400, one key "without it"); a
 * field that is given must be a string or finite number of at most 200 characters, else the
 * delivery is refused 400 with a message naming the field.
 */
import { keyFieldsOf } from '../../lib/core/payload-rules.js';
import { CALLBACK_ENTRIES } from '../../lib/core/registry.js';

const ENTRY = CALLBACK_ENTRIES.find((e) => (e.keyFields ?? []).some((f) => f.endsWith('?')))!;
const FIELDS = ENTRY.keyFields!;
const REQUIRED = FIELDS.filter((f) => !f.endsWith('?'));
const OPTIONAL = FIELDS.filter((f) => f.endsWith('?')).map((f) => f.slice(0, -1));

/** An input with every required field set to `P1` and `set` applied (dotted paths). */
function input(set: Record<string, unknown> = {}): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const put = (path: string, value: unknown) => {
    const parts = path.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    if (value !== undefined) node[parts[parts.length - 1]] = value;
  };
  for (const f of REQUIRED) put(f, 'P1');
  for (const [path, value] of Object.entries(set)) put(path, value);
  return root;
}

const WITHOUT = Object.fromEntries(REQUIRED.map((f) => [f, 'P1']));

test('the registry has an entry with optional key fields (the cases below use them)', () => {
  expect(OPTIONAL.length).toBeGreaterThan(0);
  expect(REQUIRED.length).toBeGreaterThan(0);
});

describe.each(OPTIONAL)('optional key field %s', (field) => {
  test.each<[string, unknown]>([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['whitespace only', ' \t '],
  ])('%s: left out of the key, no 400', (_what, value) => {
    const set = value === undefined ? {} : { [field]: value };
    expect(keyFieldsOf(input(set), FIELDS)).toEqual(WITHOUT);
  });

  test('a number is keyed as its text, a string trimmed', () => {
    expect(keyFieldsOf(input({ [field]: 42 }), FIELDS)).toEqual({ ...WITHOUT, [field]: '42' });
    expect(keyFieldsOf(input({ [field]: ' A7 ' }), FIELDS)).toEqual({ ...WITHOUT, [field]: 'A7' });
  });

  test('200 characters accepted, 201 refused 400 with the field named', () => {
    expect(keyFieldsOf(input({ [field]: 'x'.repeat(200) }), FIELDS)).toEqual({ ...WITHOUT, [field]: 'x'.repeat(200) });
    expect(() => keyFieldsOf(input({ [field]: 'x'.repeat(201) }), FIELDS)).toThrow(expect.objectContaining({
      status: 400, errorCode: 'INVALID_REQUEST', logReason: `${field} missing or not a string`,
      description: `${field}, when given, must be a string of at most 200 characters`,
    }));
  });

  test.each<[string, unknown]>([
    ['true', true],
    ['an object', { a: 1 }],
    ['a number JSON reads as Infinity (1e999)', JSON.parse('1e999')],
  ])('%s: refused 400', (_what, value) => {
    expect(() => keyFieldsOf(input({ [field]: value }), FIELDS)).toThrow(expect.objectContaining({
      status: 400, logReason: `${field} missing or not a string`,
      description: `${field}, when given, must be a string of at most 200 characters`,
    }));
  });
});

describe.each(REQUIRED)('required key field %s', (field) => {
  test.each<[string, unknown]>([['absent', undefined], ['null', null], ['blank', '  '], ['201 characters', 'y'.repeat(201)], ['Infinity', JSON.parse('-1e999')]])('%s: refused 400', (_what, value) => {
    const given = input();
    const parts = field.split('.');
    const parent = parts.slice(0, -1).reduce((n, p) => n[p] as Record<string, unknown>, given);
    if (value === undefined) delete parent[parts[parts.length - 1]]; else parent[parts[parts.length - 1]] = value;
    expect(() => keyFieldsOf(given, FIELDS)).toThrow(expect.objectContaining({
      status: 400, logReason: `${field} missing or not a string`,
      description: `${field} is required (a non-empty string of at most 200 characters)`,
    }));
  });

  test('exactly 200 characters accepted', () => {
    const given = input();
    const parts = field.split('.');
    const parent = parts.slice(0, -1).reduce((n, p) => n[p] as Record<string, unknown>, given);
    parent[parts[parts.length - 1]] = 'z'.repeat(200);
    expect(keyFieldsOf(given, FIELDS)[field]).toBe('z'.repeat(200));
  });
});
