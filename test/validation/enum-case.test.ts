/**
 * The reading of listed values written another way (lib/validation/enum-case.ts): from the report run's
 * enum errors, a string that equals exactly one listed string once both are trimmed, stripped of one
 * leading dot and upper-cased becomes that listed value; anything else is left for the tolerant
 * validation to refuse. The payload as received is not changed.
 */
import { CALLBACK_SCHEMAS } from '../../lib/core/registry.js';
import { enumKey, enumReadingsOf } from '../../lib/validation/enum-case.js';
import { createValidators, ENUM_CASE_RULE } from '../../lib/validation/index.js';
import type { ErrorObject } from '../../lib/validation/ajv.js';

const enumError = (instancePath: string, allowedValues: unknown[]): ErrorObject =>
  ({ keyword: 'enum', instancePath, schemaPath: '#', params: { allowedValues } }) as ErrorObject;

test('enumKey: case, surrounding spaces and one leading dot', () => {
  expect(['pdf', '.PDF', ' Pdf ', 'PDF'].map(enumKey)).toEqual(['PDF', 'PDF', 'PDF', 'PDF']);
  expect(enumKey('..pdf')).toBe('.PDF');
});

test.each([
  ['one match', 'pdf', ['PDF', 'ZPL'], 'PDF'],
  ['a leading dot', '.zpl', ['PDF', 'ZPL'], 'ZPL'],
  ['no match', 'exe', ['PDF', 'ZPL'], undefined],
  ['two listed values read the same: ambiguous, not read', 'ab', ['AB', 'ab', 'Ab'], undefined],
  ['already listed (another branch failed)', 'EAD', ['EAD'], undefined],
  ['numbers are not read', '1', [1, 2], undefined],
])('%s', (_what, sent, allowed, read) => {
  const readings = enumReadingsOf([enumError('/Docs/0/X', allowed)], { Docs: [{ X: sent }] });
  expect(readings.map((r) => r.value)).toEqual(read === undefined ? [] : [read]);
  if (read) expect(readings[0]).toEqual({ pointer: '/Docs/0/X', tokens: ['Docs', '0', 'X'], value: read });
});

test('the listed values of one pointer\'s enums are joined (an anyOf of numbers and names)', () => {
  const errors = [enumError('/T', ['1', '11']), enumError('/T', ['EAD', 'Label'])];
  expect(enumReadingsOf(errors, { T: 'ead' }).map((r) => r.value)).toEqual(['EAD']);
});

test('a non-string value, a missing value and the root are not read', () => {
  expect(enumReadingsOf([enumError('/X', ['PDF'])], { X: 5 })).toEqual([]);
  expect(enumReadingsOf([enumError('/Y', ['PDF'])], { X: 'pdf' })).toEqual([]);
  expect(enumReadingsOf([enumError('', ['PDF'])], 'pdf')).toEqual([]);
  expect(enumReadingsOf([{ ...enumError('/X', ['PDF']), keyword: 'const' } as ErrorObject], { X: 'pdf' })).toEqual([]);
});

test('through the tolerant validators: the adapter\'s copy has "PDF", the payload as received keeps "pdf"; strict refuses', async () => {
  const tolerant = createValidators(CALLBACK_SCHEMAS, 'tolerant');
  await tolerant.ready();
  const received = { OrderId: 'GE1', AdditionalRequiredDocuments: [{ DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'pdf', URL: '' }] };
  const out = tolerant.tolerate('sendOrderToMerchant', received);
  expect(out.refused).toBeNull();
  expect(out.input.AdditionalRequiredDocuments[0].DocumentExtension).toBe('PDF');
  expect(received.AdditionalRequiredDocuments[0].DocumentExtension).toBe('pdf');
  expect(out.deviations).toEqual([{ pointer: '/AdditionalRequiredDocuments/0/DocumentExtension', rule: ENUM_CASE_RULE }]);
  const strict = createValidators(CALLBACK_SCHEMAS, 'strict');
  await strict.ready();
  expect(strict.request('sendOrderToMerchant', received)).toEqual([{ pointer: '/AdditionalRequiredDocuments/0/DocumentExtension', rule: 'must be one of "PDF", "ZPL", "EPL"' }]);
});
