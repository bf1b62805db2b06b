/**
 * What a merchant's reply must never show: a stack trace, a server file path, the card number or
 * the CVV the checker sent. Works on any body text (JSON, HTML error pages, plain text).
 */
import { TEST_CARD } from './payloads.js';

const STACK_FRAME = /\bat\s+(?:[^\s()<>]+\s+)?\(?(?:file:\/\/)?(?:\/|[A-Za-z]:\\|&lt;|<)[^\s()]*:\d+:\d+\)?/;
const ERROR_WITH_FRAMES = /\b[A-Z]\w*Error\b[^\n]*(?:\n|<br\s*\/?>)\s*(?:&nbsp;|\s)*at\s/;
const FILE_PATH = /(?:^|[\s"'(=>:])((?:\/[\w.@+-]+){2,}\.(?:[cm]?[jt]sx?|json|node)|[A-Za-z]:\\{1,2}(?:[\w.@+-]+\\{1,2})+[\w.@+-]+)/;
const NODE_MODULES = /node_modules[\\/]/;
const CVV_FIELD = /cvv\w*["']?\s*[:=]\s*["']?(\d{3,4})\b/i;

/** The card digits as they could be echoed: plain, or grouped by spaces or dashes. */
function cardPatterns(): RegExp[] {
  const n = TEST_CARD.CardNumber;
  const grouped = n.match(/.{1,4}/g)!.join('[\\s-]?');
  return [new RegExp(grouped)];
}

/** The kinds of leak found in `text` (empty when clean). */
export function findLeaks(text: string): string[] {
  const found: string[] = [];
  if (STACK_FRAME.test(text) || ERROR_WITH_FRAMES.test(text)) found.push('a stack trace');
  if (FILE_PATH.test(text) || NODE_MODULES.test(text)) found.push('a server file path');
  if (cardPatterns().some((p) => p.test(text))) found.push('the card number');
  const cvv = CVV_FIELD.exec(text);
  if (cvv && cvv[1] === TEST_CARD.CVVNumber) found.push('the CVV');
  else if (new RegExp(`["']${TEST_CARD.CVVNumber}["']`).test(text)) found.push('the CVV');
  return found;
}
