import { KitError, validatePayload } from 'crossborder-merchant-kit';

test('validatePayload reports the failing location and rule, never the value', () => {
  const issues = validatePayload('DispatchRequestV2', { OrderId: 'GE123', IsCompleted: 'yes-please', Parcels: [] });
  expect(issues).not.toBeNull();
  expect(issues![0].pointer).toBe('/IsCompleted');
  expect(JSON.stringify(issues)).not.toContain('yes-please');
});

test('validatePayload accepts a valid payload', () => {
  expect(validatePayload('HubDetails', { HubId: 7, HubName: 'Hub North', CountryCode: 'DE' })).toBeNull();
});

test('an unknown type name is a KitError with a stable code', () => {
  expect(() => validatePayload('Dispatch', {})).toThrow(KitError);
  expect(() => validatePayload('Dispatch', {})).toThrow(/ERR_CBK_UNKNOWN_SCHEMA/);
});

test('a V2 dispatch needs Parcels or Exceptions', () => {
  expect(validatePayload('DispatchRequestV2', { OrderId: 'GE123' })).toEqual([{ pointer: '', rule: 'requires one of Parcels, Exceptions' }]);
});
