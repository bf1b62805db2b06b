/** The exported code tables (docs/errors.md): read-only, so no app can change what the kit answers with. */
import { CallbackError, KitError, KIT_ERROR_CODES, WIRE_ERRORS, type WireErrorCode } from 'crossborder-merchant-kit';
import { PipelineFailure, wireErrorBody } from '../../lib/shared/errors.js';

test('WIRE_ERRORS and its entries are frozen: a write throws and the reply keeps the documented status and message', () => {
  const table = WIRE_ERRORS as unknown as Record<string, { status: number; message: string }>;
  expect(() => { table.STORE_UNAVAILABLE.status = 200; }).toThrow(TypeError);
  expect(() => { table.INTERNAL_ERROR.message = 'TypeError: x is undefined at adapter.js:12'; }).toThrow(TypeError);
  expect(() => { table.NEW_CODE = { status: 200, message: 'ok' }; }).toThrow(TypeError);
  expect(() => { (KIT_ERROR_CODES as unknown as Record<string, string>).ERR_CBK_OPTION_UNKNOWN = 'x'; }).toThrow(TypeError);
  expect(new PipelineFailure('STORE_UNAVAILABLE', 'test').status).toBe(503);
  expect(wireErrorBody('INTERNAL_ERROR')).toEqual({ Success: false, Message: 'Internal error', ErrorCode: 'INTERNAL_ERROR' });
});

test('WIRE_ERRORS lists each code the kit answers with, with its status', () => {
  const statuses = Object.fromEntries(Object.entries(WIRE_ERRORS).map(([code, e]) => [code, e.status])) as Record<WireErrorCode, number>;
  expect(statuses).toEqual({
    INVALID_REQUEST: 400, UNAUTHORIZED: 401, FORBIDDEN: 403, NOT_FOUND: 404, PAYLOAD_TOO_LARGE: 413, UNSUPPORTED_MEDIA_TYPE: 415,
    INTERNAL_ERROR: 500, IN_FLIGHT: 503, STORE_UNAVAILABLE: 503,
  });
  for (const entry of Object.values(WIRE_ERRORS)) expect(entry.help.length).toBeGreaterThan(10);
});

describe('CallbackError options', () => {
  test('the documented options are kept: status, errorCode, description', () => {
    const err = new CallbackError('Unknown cart', { status: 404, errorCode: 'CART_NOT_FOUND', description: 'no such cart' });
    expect(err).toMatchObject({ name: 'CallbackError', message: 'Unknown cart', status: 404, errorCode: 'CART_NOT_FOUND', description: 'no such cart' });
    expect(new CallbackError('No options').status).toBe(400);
    expect(new CallbackError('Null options (JavaScript)', null as never)).toMatchObject({ status: 400, errorCode: undefined });
  });

  test.each([
    ['staus', 'status'], ['errorcode', 'errorCode'], ['descripton', 'description'],
  ])('a misspelt option %s (JavaScript) throws ERR_CBK_OPTION_UNKNOWN naming %s, not a silent 400', (wrong, right) => {
    let thrown: unknown;
    try { new CallbackError('Unknown cart', { [wrong]: 404 } as never); } catch (err) { thrown = err; }
    expect(thrown).toBeInstanceOf(KitError);
    expect((thrown as KitError).code).toBe('ERR_CBK_OPTION_UNKNOWN');
    expect((thrown as KitError).message).toContain(`did you mean "CallbackError ${right}"?`);
  });

  test('a misspelt option next to correct ones still throws', () => {
    expect(() => new CallbackError('x', { status: 404, errorCod: 'X' } as never)).toThrow(/CallbackError errorCod; did you mean "CallbackError errorCode"/);
  });
});
