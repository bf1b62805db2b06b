/**
 * Card data never reaches a log, a report or the sandbox's exchange log, even the sandbox's own test
 * card: CardNumber keeps its last four digits, CVVNumber is starred, whatever the key's case.
 */
const CARD_KEYS = new Set(['cardnumber', 'cvvnumber', 'cvv', 'cvc', 'securitycode']);

function maskValue(key: string, value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const text = String(value);
  if (key === 'cardnumber') return text.length > 4 ? `${'*'.repeat(Math.max(0, text.length - 4))}${text.slice(-4)}` : '****';
  return '***';
}

/** A deep copy of `value` with card numbers and CVVs masked. */
export function redactCardData<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => redactCardData(v)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = k.toLowerCase();
    out[k] = CARD_KEYS.has(key) ? maskValue(key, v) : redactCardData(v);
  }
  return out as T;
}

/** A JSON text with card data masked (returned unchanged when it is not JSON). */
export function redactJsonText(text: string): string {
  try {
    return JSON.stringify(redactCardData(JSON.parse(text)));
  } catch {
    return text;
  }
}
