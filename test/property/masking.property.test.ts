/**
 * Property: masking never leaks a card number or a credential in any spelling, letter case or
 * position — in an error text (the client's mask), a log line (the kit's SafeLogger: message, error
 * message and stack, nested fields), a channel message (the client's public answer) and a reply text
 * (the card mask). Issue 36 item 11.
 */
import fc from 'fast-check';
import { createCardMask } from '../../lib/core/card-data.js';
import { mask, publicAnswer } from '../../lib/client/request.js';
import { credentialPatterns } from '../../lib/shared/credentials.js';
import { createSafeLogger } from '../../lib/shared/logger.js';
import { captureLogger } from '../helpers/recording.js';
import { holds } from './settings.js';

/** Text around a planted secret: printable ASCII without brackets (the mask's `[REDACTED]` has them) and without digits for cards. */
const text = (alphabet: string) => fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }).map((a) => a.join(''));
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).filter((c) => c !== '[' && c !== ']').join('');
const NO_DIGITS = ASCII.replace(/\d/g, '');

/** A MerchantGUID as the service or an ERP may spell it: any case per character, with or without hyphens and braces. */
const guidSpelling = (guid: string) => fc.record({
  upper: fc.array(fc.boolean(), { minLength: guid.length, maxLength: guid.length }),
  hyphens: fc.boolean(),
  braces: fc.boolean(),
}).map(({ upper, hyphens, braces }) => {
  let s = Array.from(guid, (c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join('');
  if (!hyphens) s = s.replace(/-/g, '');
  return braces ? `{${s}}` : s;
});

/** A token: 12+ characters (shorter ones could be part of the word REDACTED itself), any case when echoed. */
const token = fc.array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-'), { minLength: 12, maxLength: 48 }).map((a) => a.join(''));
const anyCase = (value: string) => fc.array(fc.boolean(), { minLength: value.length, maxLength: value.length })
  .map((upper) => Array.from(value, (c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));

/** What a reader could find of a GUID: its 32 characters in order, whatever the case, hyphens or braces. */
const guidCore = (guid: string) => guid.replace(/[-{}]/g, '').toLowerCase();
const leaksGuid = (out: string, guid: string) => out.replace(/[-{}]/g, '').toLowerCase().includes(guidCore(guid));
const leaksToken = (out: string, t: string) => out.toLowerCase().includes(t.toLowerCase());

const planted = fc.uuid().chain((guid) => fc.record({
  guid: fc.constant(guid), guidAs: guidSpelling(guid), token, before: text(ASCII), between: text(ASCII), after: text(ASCII),
})).chain((p) => anyCase(p.token).map((tokenAs) => ({ ...p, tokenAs })));

test('the client\'s mask: no GUID or token in any spelling, case or position of an error text', async () => {
  await holds(fc.property(planted, ({ guid, guidAs, token: t, tokenAs, before, between, after }) => {
    const secrets = credentialPatterns([guid], [t]);
    const out = mask(`${before}${guidAs}${between}${tokenAs}${after}${guidAs}`, secrets);
    return !leaksGuid(out, guid) && !leaksToken(out, t) && out.includes('[REDACTED]');
  }));
});

test('the client\'s mask with a token given as a plain string (every attempt\'s token): any case', async () => {
  await holds(fc.property(planted, ({ token: t, tokenAs, before, after }) => !leaksToken(mask(`${before}${tokenAs}${after}`, [t]), t)));
});

test('the client channel\'s public answer: the body masked, no secrets list', async () => {
  await holds(fc.property(planted, ({ guid, guidAs, token: t, tokenAs, before, after }) => {
    const published = publicAnswer({
      status: 400, attempts: 1, headers: new Headers(), text: `{"Error":"${before}${guidAs} ${tokenAs}${after}"}`,
      secrets: credentialPatterns([guid], [t]),
    });
    const serialised = JSON.stringify(published);
    return !leaksGuid(serialised, guid) && !leaksToken(serialised, t) && !('secrets' in published);
  }));
});

test('the kit\'s logger: no configured GUID or secret in any spelling in the message, an error (message, stack) or a nested field', async () => {
  await holds(fc.property(planted, ({ guid, guidAs, token: t, tokenAs, before, after }) => {
    const base = captureLogger();
    const log = createSafeLogger(base, {}, credentialPatterns([guid], [t]));
    const err = new Error(`${before}merchant ${guidAs} unknown in ERP${after}`);
    log.error({ err, detail: { deep: [`${tokenAs}${after}`], note: `${before}${guidAs}` } }, `${before}${tokenAs} / ${guidAs}`);
    const out = base.text();
    return base.lines.length === 1 && !leaksGuid(out, guid) && !leaksToken(out, t);
  }));
});

/** A card number (13–19 digits) and two spellings of it: bare, or with spaces, dashes or dots between any digits. */
const separators = (n: number) => fc.array(fc.constantFrom('', '', '', ' ', '-', '.', '  ', ' - '), { minLength: n - 1, maxLength: n - 1 });
const cards = fc.stringMatching(/^[0-9]{13,19}$/).chain((digits) => fc.record({
  digits: fc.constant(digits), sent: separators(digits.length), echoed: separators(digits.length), before: text(NO_DIGITS), after: text(NO_DIGITS),
}));
const spell = (digits: string, seps: readonly string[]) => Array.from(digits, (d, i) => (i === 0 ? d : `${seps[i - 1]}${d}`)).join('');

test('the card mask: the request\'s card number in any spelling and position is masked in a reply text', async () => {
  await holds(fc.property(cards, ({ digits, sent, echoed, before, after }) => {
    const cardMask = createCardMask([spell(digits, sent)], [])!;
    const out = cardMask(`${before}${spell(digits, echoed)}${after}`);
    return !out.replace(/[\s.-]/g, '').includes(digits) && out.includes('[REDACTED]');
  }));
});

test('the card mask in a log line (its pattern given to the logger): masked in any spelling', async () => {
  await holds(fc.property(cards, ({ digits, sent, echoed, before, after }) => {
    const base = captureLogger();
    const log = createSafeLogger(base, {}, [createCardMask([spell(digits, sent)], [])!.pattern]);
    log.warn({ err: new Error(`${before}${spell(digits, echoed)}${after}`) }, `${spell(digits, echoed)}`);
    return !base.text().replace(/[\s.-]/g, '').includes(digits);
  }));
});
