/**
 * The client's secret masking (mask in lib/client/request.ts): the MerchantGUID and the tokens it
 * sent never reach an error description or a log line. Written against mutation testing
 * (docs/safety-tests.md): the length floor, every occurrence, every secret, an empty secret.
 */
import { mask } from '../../lib/client/request.js';

const GUID = '8f3e2a1c-5b7d-4e9f-a0c1-d2e3f4a5b6c7';
const TOKEN = 'tok-7Hq2vN9xK4';

describe('mask', () => {
  test('every occurrence of every secret is replaced by [REDACTED]', () => {
    expect(mask(`GUID ${GUID} token ${TOKEN}; again ${GUID}`, [GUID, TOKEN]))
      .toBe('GUID [REDACTED] token [REDACTED]; again [REDACTED]');
  });

  test('a secret of 3 characters is masked; shorter ones are not (they would mask ordinary words)', () => {
    expect(mask('key abc in abcd', ['abc'])).toBe('key [REDACTED] in [REDACTED]d');
    expect(mask('ab is a word', ['ab'])).toBe('ab is a word');
  });

  test('an empty secret masks nothing (and does not break the text apart)', () => {
    expect(mask('nothing secret here', [''])).toBe('nothing secret here');
    expect(mask(`x ${TOKEN} y`, ['', TOKEN])).toBe('x [REDACTED] y');
  });

  test('text without secrets, or no secrets at all: unchanged', () => {
    expect(mask('could not reach the service (ECONNREFUSED)', [GUID, TOKEN])).toBe('could not reach the service (ECONNREFUSED)');
    expect(mask(`x ${TOKEN}`, [])).toBe(`x ${TOKEN}`);
  });
});
