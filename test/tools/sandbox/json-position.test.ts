/**
 * JSON errors by position only (issue 51 item 3): the offset the scanner finds is where V8's own
 * parser stops (it names the position for some errors and quotes the text for others), and the
 * error's message never holds any of the text.
 */
import fc from 'fast-check';
import { JsonTextError, jsonErrorOffset, parseJsonText } from '../../../lib/tools/sandbox/json-position.js';

/** The position V8 names, when its message names one. */
const v8Offset = (text: string): number | undefined => {
  try { JSON.parse(text); return -1; } catch (err) {
    const m = /at position (\d+)/.exec((err as Error).message);
    if (m) return Number(m[1]);
    return /Unexpected end of JSON input/.test((err as Error).message) ? text.length : undefined;
  }
};

test('valid JSON has no error offset; broken JSON the offset V8 names', () => {
  for (const text of ['{}', '[]', '0', '-1.5e+3', '"\\u00e9\\n"', ' {"a":[1,{"b":null}],"c":true} ']) expect(jsonErrorOffset(text)).toBe(-1);
  for (const text of ['{"a":1', '{"CardNumber": "4111111111111111" x}', '{"a":"x\ny"}', '', 'nul', '{"a":1} x', '01']) {
    const v8 = v8Offset(text);
    if (v8 !== undefined) expect(jsonErrorOffset(text)).toBe(v8);
  }
  expect(jsonErrorOffset('{"a": }')).toBe(6); // V8 quotes the text here instead of naming the position
  expect(jsonErrorOffset('[1,2,]')).toBe(5);
});

test('property: the scanner agrees with JSON.parse on validity, and with V8 on the position wherever V8 names one', () => {
  const mutated = fc.tuple(fc.json(), fc.nat(), fc.constantFrom('', '}', ']', ',', ':', '"', 'x', ' ', '\n', '\\'), fc.boolean())
    .map(([json, at, insert, cut]) => {
      const i = at % (json.length + 1);
      return cut ? json.slice(0, i) : json.slice(0, i) + insert + json.slice(i);
    });
  fc.assert(fc.property(mutated, (text) => {
    let valid = true;
    try { JSON.parse(text); } catch { valid = false; }
    const offset = jsonErrorOffset(text);
    expect(offset === -1).toBe(valid);
    const v8 = v8Offset(text);
    if (!valid && v8 !== undefined) expect(offset).toBe(v8);
  }), { numRuns: 500 });
});

test('the error names line, column and character, never the text', () => {
  const secret = '4111111111111111';
  let err: JsonTextError | undefined;
  try { parseJsonText(`{\n  "CardNumber": "${secret}",\n  "OrderId": GE1\n}`, 'the file'); } catch (e) { err = e as JsonTextError; }
  expect(err).toBeInstanceOf(JsonTextError);
  expect(err!.code).toBe('INVALID_JSON');
  expect(err!.position).toEqual({ line: 3, column: 14, offset: 51 });
  expect(err!.message).toBe('the file is not valid JSON at line 3, column 14 (character 52); its content is not shown (it may hold card data or credentials)');
  expect(parseJsonText('\uFEFF{"a":1}')).toEqual({ a: 1 }); // a byte-order mark, as editors save it
});
