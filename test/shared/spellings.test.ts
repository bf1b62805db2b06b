/**
 * lib/shared/spellings.ts: a value's pattern in every spelling a service may echo it in (the cases
 * the property suite generates, written out), and nothing around it masked.
 */
import { anyCasePattern, guidPattern } from '../../lib/shared/credentials.js';
import { maskSecrets } from '../../lib/shared/logger.js';
import { minimumLength, spellingsPattern } from '../../lib/shared/spellings.js';

const PASSWORD = 'pa"ss\\w+rd & <é>';
const masked = (text: string, pattern = spellingsPattern(PASSWORD)) => maskSecrets(text, [pattern]);

describe('a password with characters that need escaping', () => {
  test.each<[string, string]>([
    ['plain', 'pa"ss\\w+rd & <é>'],
    ['JSON-escaped (the issue\'s echo)', 'pa\\"ss\\\\w+rd & <é>'],
    ['JSON-escaped twice', 'pa\\\\\\"ss\\\\\\\\w+rd & <é>'],
    ['.NET escapes', 'pa\\u0022ss\\\\w\\u002Brd \\u0026 \\u003C\\u00E9\\u003E'],
    ['URL-encoded, %20', 'pa%22ss%5Cw%2Brd%20%26%20%3C%C3%A9%3E'],
    ['URL-encoded, + and lower hex', 'pa%22ss%5cw%2brd+%26+%3c%c3%a9%3e'],
    ['URL-encoded JSON text', 'pa%5C%22ss%5C%5Cw%2Brd%20%26%20%3C%C3%A9%3E'],
    ['upper case', 'PA"SS\\W+RD & <É>'],
  ])('%s: masked, the text around it kept', (_how, spelt) => {
    expect(masked(`{"Error":"bad ${spelt}!"}`)).toBe('{"Error":"bad [REDACTED]!"}');
  });

  test('the issue\'s case: the service echoes the token request\'s body inside its error text', () => {
    const body = JSON.stringify({ UserName: 'api', Password: PASSWORD });
    const answer = JSON.stringify({ Error: `invalid request ${body}` });
    expect(masked(answer)).toBe(JSON.stringify({ Error: 'invalid request {"UserName":"api","Password":"[REDACTED]"}' }));
    expect(masked(JSON.parse(answer).Error)).toBe('invalid request {"UserName":"api","Password":"[REDACTED]"}');
  });

  test('an astral character as one code point or as its two \\u escapes', () => {
    expect(maskSecrets('x 😀tok-123 y \\ud83d\\ude00TOK-123 z %F0%9F%98%80tok-123', [spellingsPattern('😀tok-123')])).toBe('x [REDACTED] y [REDACTED] z [REDACTED]');
  });

  test('a control character as itself, its short escape or \\u000a', () => {
    expect(maskSecrets('a\nbcd | a\\nbcd | a\\u000abcd | a%0Abcd', [spellingsPattern('a\nbcd')])).toBe('[REDACTED] | [REDACTED] | [REDACTED] | [REDACTED]');
  });

  test('a near miss is not masked: another character, or one missing', () => {
    expect(masked('pa"ss\\w+rd & <e>')).toBe('pa"ss\\w+rd & <e>');
    expect(masked('pa"ssw+rd & <é>')).toBe('pa"ssw+rd & <é>');
  });
});

describe('credentials.ts uses them', () => {
  test('anyCasePattern: every spelling; none under MIN_SECRET_LENGTH', () => {
    expect(maskSecrets('t%2Bk%2b1 / t\\u002bk+1', [anyCasePattern('t+k+1')!])).toBe('[REDACTED] / [REDACTED]');
    expect(anyCasePattern('ab')).toBeUndefined();
  });

  test('guidPattern: braces and hyphens in any spelling', () => {
    const guid = '5b0e6c2a-1f3d-4c8e-9a7b-2d4f6e8a0c1e';
    const out = maskSecrets(`a %7B5B0E6C2A%2D1f3d-4c8e-9a7b-2d4f6e8a0c1e%7D b \\u007b5b0e6c2a\\u002d1f3d4c8e9a7b2d4f6e8a0c1e\\u007d c`, [guidPattern(guid)!]);
    expect(out).toBe('a [REDACTED] b [REDACTED] c');
  });
});

describe('maskSecrets skips a pattern only on a text too short to hold a match (minimumLength)', () => {
  test('the shortest spelling of a value is as long as its minimum, and masked; one character less is left as is', () => {
    const astral = '😀tok-123';
    expect(minimumLength(spellingsPattern(astral))).toBe(8);
    expect(maskSecrets('😀TOK-123', [spellingsPattern(astral)])).toBe('[REDACTED]');
    const guid = '{5B0E6C2A-1F3D-4C8E-9A7B-2D4F6E8A0C1E}';
    const shortest = '5b0e6c2a1f3d4c8e9a7b2d4f6e8a0c1e';
    expect(minimumLength(guidPattern(guid)!)).toBe(shortest.length);
    expect(maskSecrets(shortest, [guidPattern(guid)!])).toBe('[REDACTED]');
    expect(maskSecrets(shortest.slice(1), [guidPattern(guid)!])).toBe(shortest.slice(1));
  });

  test.each<[string, string]>([
    ['plain', PASSWORD],
    ['URL-encoded JSON text', 'pa%5C%22ss%5C%5Cw%2Brd%20%26%20%3C%C3%A9%3E'],
    ['.NET escapes', 'pa\\u0022ss\\\\w\\u002Brd \\u0026 \\u003C\\u00E9\\u003E'],
  ])('%s: a text exactly the spelling is masked (never skipped)', (_how, spelt) => {
    const pattern = spellingsPattern(PASSWORD);
    expect(spelt.length).toBeGreaterThanOrEqual(minimumLength(pattern)!);
    expect(maskSecrets(spelt, [pattern])).toBe('[REDACTED]');
  });

  test('a pattern not made by spellings.ts has no minimum and is always applied', () => {
    expect(minimumLength(/x/g)).toBeUndefined();
    expect(maskSecrets('x', [/x/g])).toBe('[REDACTED]');
  });
});
