/**
 * Bounds on what the kit copies from a request into telemetry and log lines: an id (an OrderId, a
 * cart's OrderID) at the kit's id limit, any other text (a header value, a refusal's reason) at a few
 * hundred characters; past the bound the text is cut and marked, so a 300 kB OrderID costs a log
 * line or a span attribute a few hundred bytes, and the reader sees that it was cut.
 */

/** The kit's id limit (an exactly-once OrderId longer than this is refused): ids in logs and telemetry are cut there. */
export const MAX_LOGGED_ID = 200;
/** A header value quoted in a refusal's reason. */
export const MAX_LOGGED_HEADER = 100;
/** A refusal's whole reason in its log line. */
export const MAX_LOGGED_REASON = 1000;

const CUT_MARK = /…\[cut, \d+ chars\]$/;

/**
 * `text` when it has at most `max` UTF-16 code units; else its first `max` (one less rather than
 * half a surrogate pair) followed by the marker `…[cut, <length> chars]`.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  // Already cut at this bound (an id cut where it was read, then logged): as it is.
  const marked = CUT_MARK.exec(text);
  if (marked && marked.index <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…[cut, ${text.length} chars]`;
}
