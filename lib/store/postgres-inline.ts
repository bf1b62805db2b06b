/**
 * A statement with its parameters written in as SQL literals, for the few statements PostgresStore
 * sends as one simple-protocol query after `SET LOCAL statement_timeout` (a parameterised statement
 * cannot share a query with another; see postgres.ts, bounded). Every value is typed by the function
 * it is passed to; text is an E'' literal (backslashes and quotes escaped, whatever
 * standard_conforming_strings says), numbers must be finite, and a NUL (which PostgreSQL text cannot
 * hold, and which would cut the query short) is refused.
 */

/** A text value as an E'' literal. */
export function textLiteral(text: string): string {
  if (text.includes('\u0000')) throw Object.assign(new Error('a value holds a NUL character, which PostgreSQL text cannot store'), { code: '22021' });
  return `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return textLiteral(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
    return `${value}::float8`;
  }
  if (Array.isArray(value)) return `ARRAY[${value.map((v) => textLiteral(String(v))).join(', ')}]::text[]`;
  throw new TypeError(`no SQL literal for a ${typeof value}`);
}

/** `text` with $1, $2, ... replaced by the literals of `values`. */
export function inlineValues(text: string, values: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= values.length) throw new RangeError(`no value for $${n}`);
    return literal(values[i]);
  });
}
