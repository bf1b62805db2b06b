/**
 * The client's secret masking (mask in lib/client/request.ts): the MerchantGUID and the tokens it
 * sent never reach an error description or a log line. Written against mutation testing
 * (docs/safety-tests.md): the length floor, every occurrence, every secret, an empty secret.
 */
import { mask, publicAnswer } from '../../lib/client/request.js';
import { anyCasePattern, credentialPatterns, guidPattern } from '../../lib/shared/credentials.js';

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

describe('credential patterns (lib/shared/credentials.ts) as the client masks with them (issue 36)', () => {
  test('a plain string secret is masked in any letter case', () => {
    expect(mask(`a ${TOKEN.toUpperCase()} b ${TOKEN.toLowerCase()}`, [TOKEN])).toBe('a [REDACTED] b [REDACTED]');
  });

  test('every character of a token is literal: RegExp syntax in it neither breaks nor widens the pattern', () => {
    const special = 'a.b*c+d?e(f)g[h]i{j}k|l^m$n/o\\p';
    expect(mask(`x ${special} y`, credentialPatterns([], [special]))).toBe('x [REDACTED] y');
    expect(mask(`x ${special.toUpperCase()} y`, [special])).toBe('x [REDACTED] y');
    // '.' is not "any character", '*' not "repeat": a near miss stays.
    expect(mask('tokXn toon', credentialPatterns([], ['tok.n', 'to*n']))).toBe('tokXn toon');
  });

  test('the configured GUID as written is masked, whatever it holds; with or without braces and hyphens', () => {
    for (const value of ['ab{cd-ef}gh', '{x-y-z}', 'plain-text-guid', '  spaced-guid  ', '{A1B2-C3}']) {
      const patterns = credentialPatterns([value], []);
      expect(mask(`[${value.trim()}]`, patterns)).toBe('[[REDACTED]]');
    }
    expect(mask('x 5B0E6C2A1F3D y {5b0e6c2a-1f3d} z', credentialPatterns(['5b0e6c2a-1f3d'], []))).toBe('x [REDACTED] y [REDACTED] z');
    expect(mask('x {5b0e6c2a-1f3d} y', credentialPatterns([' {5B0E6C2A-1F3D} '], []))).toBe('x [REDACTED] y');
  });

  test('values too short to mask give no pattern (and mask nothing, not even the word undefined)', () => {
    expect(credentialPatterns(['{a-b}', 'ab', ''], ['xy', ''])).toStrictEqual([]);
    expect(credentialPatterns(['{a-b}'], [])).toHaveLength(0);
    expect(credentialPatterns([], ['xy'])).toHaveLength(0);
    expect(anyCasePattern('ab')).toBeUndefined();
    expect(guidPattern('{-a-}')).toBeUndefined();
    expect(mask('undefined ab xy', credentialPatterns(['ab'], ['xy']))).toBe('undefined ab xy');
    expect(mask('undefined ab xy', ['ab', 'xy', ''])).toBe('undefined ab xy');
    expect(credentialPatterns(['abc'], ['xyz'])).toHaveLength(2);
  });
});

describe('publicAnswer: what the client channel publishes', () => {
  const outcome = { status: 503, attempts: 2, headers: new Headers({ 'set-cookie': 's=1' }), text: `no ${TOKEN} here`, secrets: credentialPatterns([GUID], [TOKEN]) };

  test('status, attempts, the masked body; retryAfterMs only when the answer had one', () => {
    expect(publicAnswer(outcome)).toStrictEqual({ status: 503, attempts: 2, body: 'no [REDACTED] here' });
    expect(publicAnswer({ ...outcome, retryAfterMs: 120_000 })).toStrictEqual({ status: 503, attempts: 2, body: 'no [REDACTED] here', retryAfterMs: 120_000 });
    expect(publicAnswer({ ...outcome, retryAfterMs: 0 })).toStrictEqual({ status: 503, attempts: 2, body: 'no [REDACTED] here', retryAfterMs: 0 });
  });
});
