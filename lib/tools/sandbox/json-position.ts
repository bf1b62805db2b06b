/**
 * JSON text parsed with an error that says where, never what: a captured payload may hold card data
 * or credentials, and the engine's own message quotes the text ("Unexpected token … "{"CardNumber…"").
 */

/** Where JSON text stops being valid: 1-based line and column, 0-based character offset. */
export interface JsonPosition { line: number; column: number; offset: number }

/** Text that is not JSON: `code` `INVALID_JSON`, the `position`, and a message that names the position only. */
export class JsonTextError extends Error {
  readonly code = 'INVALID_JSON';
  constructor(readonly position: JsonPosition, what: string) {
    super(`${what} is not valid JSON at line ${position.line}, column ${position.column} (character ${position.offset + 1}); its content is not shown (it may hold card data or credentials)`);
    this.name = 'JsonTextError';
  }
}

/** The offset of the first character at which `text` is not JSON (text.length when it ends too early). */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  const fail = (): never => { throw i; };
  const literal = (word: string) => { for (const c of word) { if (text[i] !== c) fail(); i++; } };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const c = text[i];
      if (c === '"') { i++; return; }
      if (c < ' ') fail();
      if (c === '\\') {
        i++;
        if (text[i] === 'u') { i++; for (let k = 0; k < 4; k++) { if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail(); i++; } continue; }
        if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (/[1-9]/.test(text[i] ?? '')) while (/[0-9]/.test(text[i] ?? '')) i++;
    else fail();
    if (text[i] === '.') { i++; if (!/[0-9]/.test(text[i] ?? '')) fail(); while (/[0-9]/.test(text[i] ?? '')) i++; }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!/[0-9]/.test(text[i] ?? '')) fail();
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string(); ws();
        if (text[i] !== ':') fail();
        i++; value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        fail();
      }
    }
    if (c === '[') {
      i++; ws();
      if (text[i] === ']') { i++; return; }
      for (;;) {
        value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return number();
  };
  try {
    value(); ws();
    if (i < text.length) fail();
    return -1;
  } catch (at) {
    if (typeof at === 'number') return at;
    throw at;
  }
}

function positionOf(text: string, offset: number): JsonPosition {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1, offset };
}

/** JSON.parse, whose error names the position only (`what`: how the message names the text, e.g. `the file`). */
export function parseJsonText(text: string, what = 'the payload'): unknown {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // a byte-order mark, as editors save it
  try {
    return JSON.parse(clean);
  } catch {
    let offset: number;
    try { offset = jsonErrorOffset(clean); } catch { offset = 0; } // nested deeper than the scanner's stack: the start
    throw new JsonTextError(positionOf(clean, offset < 0 ? 0 : offset), what);
  }
}
