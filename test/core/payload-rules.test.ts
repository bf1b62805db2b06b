/**
 * repeatedMember (lib/core/payload-rules.ts): which credential or key member one object of a
 * body repeats; the parse stage refuses the body naming it (test/bindings/repeated-members.test.ts
 * runs it on every binding). Each registry entry guards MerchantGUID, its idField and its keyFields.
 */
import { parse, createParser } from '../../lib/core/stages/parse.js';
import { repeatedMember } from '../../lib/core/payload-rules.js';
import { CALLBACK_ENTRIES } from '../../lib/core/registry.js';

const NAMES = ['MerchantGUID', 'OrderId', 'RMANumber'];

test.each<[string, string, string | undefined]>([
  ['none repeated', '{"MerchantGUID":"a","OrderId":"1","RMANumber":2}', undefined],
  ['RMANumber twice', '{"RMANumber":1,"OrderId":"1","RMANumber":2}', 'RMANumber'],
  ['a name as a value, and in a string with quotes', '{"OrderId":"OrderId","x":"\\"OrderId\\":","y":["OrderId"]}', undefined],
  ['one per object, at any depth', '{"OrderId":"1","a":{"OrderId":"2","b":[{"OrderId":"3"},{"OrderId":"4"}]},"c":{"OrderId":"5"}}', undefined],
  ['twice in a nested object', '{"OrderId":"1","a":[{"OrderId":"2","OrderId":"3"}]}', 'OrderId'],
  ['twice after a closed inner object', '{"OrderId":"1","a":{"OrderId":"2"},"OrderId":"3"}', 'OrderId'],
  ['spelt with escapes', '{"Order\\u0049d":"1","\\u004frderId":"2"}', 'OrderId'],
  ['other members repeated (not guarded)', '{"Note":"1","Note":"2","OrderId":"1"}', undefined],
  ['one in an inner object, then one after it (each object its own)', '{"a":{"OrderId":"1"},"OrderId":"2"}', undefined],
  ['a value ending with an escaped quote before a repeat', '{"x":"a\\"","OrderId":"1","OrderId":"2"}', 'OrderId'],
  ['an escaped quote inside a value, then a repeat', '{"x":"a\\"b","OrderId":"1","OrderId":"2"}', 'OrderId'],
  ['an escaped quote inside a member name, then a repeat', '{"a\\"b":1,"OrderId":"1","OrderId":"2"}', 'OrderId'],
  ['a value ending with an escaped backslash before a repeat', '{"x":"a\\\\","OrderId":"1","OrderId":"2"}', 'OrderId'],
  ['braces inside values', '{"a":"{","OrderId":"1","b":"}}","c":{"OrderId":"2"}}', undefined],
  ['braces inside values, then a repeat', '{"a":"}","OrderId":"1","b":"{","OrderId":"2"}', 'OrderId'],
  ['an unguarded member repeated while the scan runs', '{"Note":"1","Note":"2","OrderId":"1","a":{"OrderId":"2"}}', undefined],
  ['whitespace around the colon', '{ "OrderId" \n: "1" , "OrderId"\t:"2" }', 'OrderId'],
  ['a carriage return before the colon', '{"OrderId"\r:"1","OrderId"\r\n:"2"}', 'OrderId'],
])('%s', (_what, text, repeated) => {
  expect(() => JSON.parse(text)).not.toThrow();
  expect(repeatedMember(text, NAMES)).toBe(repeated);
});

test('each exactly-once entry guards its idField and every keyFields entry (derived from the registry)', () => {
  const parser = createParser({ merchantGuids: ['3f2c9a1e-7b4d-4e8a-9c61-2d5f0b8e4a17'], bodyLimit: 1e6, documentsBodyLimit: 1e6 } as never);
  for (const entry of CALLBACK_ENTRIES.filter((e) => e.methods.includes('POST'))) {
    for (const field of ['MerchantGUID', entry.idField, ...(entry.keyFields ?? [])]) {
      const body = Buffer.from(`{"${field}":"1","${field}":"2"}`);
      const started = { callback: entry.name, entry, request: { method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, query: {} }, body: { kind: 'raw', bytes: body }, context: {}, log: {} };
      expect(() => parse(parser, started as never)).toThrow(expect.objectContaining({ errorCode: 'INVALID_REQUEST', message: expect.stringContaining(`member ${field} twice`) }));
    }
  }
});
