/** The client's secret masking (lib/client/request.ts `mask`): used on every error description built from an answer or a failure. */
import { mask } from '../../lib/client/request.js';

test('every occurrence of every secret is replaced', () => {
  expect(mask('token tok-123 and tok-123 for guid G-9f', ['tok-123', 'G-9f'])).toBe('token [REDACTED] and [REDACTED] for guid [REDACTED]');
});

test('a 3-character secret is masked; shorter ones are left (they would wreck the text, and are no real secrets)', () => {
  expect(mask('key abc here', ['abc'])).toBe('key [REDACTED] here');
  expect(mask('id ab here', ['ab'])).toBe('id ab here');
  expect(mask('text', [''])).toBe('text');
});

test('text without the secrets is returned unchanged', () => {
  expect(mask('nothing secret', ['tok-123'])).toBe('nothing secret');
});
