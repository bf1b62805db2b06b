/**
 * schemas/openapi.yaml's `webhooks:` section is written from the callback registry (npm run generate,
 * schemas/tools/generate-openapi.ts): a new callback needs no hand edit there.
 */
import fs from 'node:fs';
import { parse } from 'yaml';
import { CALLBACK_ENTRIES, REGISTRY, type CallbackEntry } from '../../lib/core/registry.js';
import { OPENAPI_FILE, openapiDocument } from '../../schemas/tools/generate-openapi.js';

const current = fs.readFileSync(OPENAPI_FILE, 'utf8');
type Doc = { webhooks: Record<string, Record<string, { operationId: string; requestBody?: { $ref?: string; content?: { 'application/json': { schema: { $ref: string } } } } }>> };

test('the committed document is what the generator writes (npm run generate:check fails otherwise)', () => {
  expect(openapiDocument(current)).toBe(current);
});

test('every registered callback is a webhook named as its default path, with each of its methods', () => {
  const doc = parse(current) as Doc;
  expect(Object.keys(doc.webhooks)).toEqual(CALLBACK_ENTRIES.map((e) => e.defaultPath.slice(1)));
  for (const e of CALLBACK_ENTRIES) expect(Object.keys(doc.webhooks[e.defaultPath.slice(1)])).toEqual(e.methods.map((m) => m.toLowerCase()));
});

test('a callback added to the registry gets its webhook, its request schema as the body, without touching the rest', () => {
  const added = {
    ...REGISTRY.receiveRmaInfo, name: 'notifyOrderShipped', defaultPath: '/NotifyOrderShipped',
    requestSchema: 'callbacks/parcel-dispatch.request.schema.json',
  } as unknown as CallbackEntry;
  const written = openapiDocument(current, [...CALLBACK_ENTRIES, added]);
  const doc = parse(written) as Doc;
  const op = doc.webhooks.NotifyOrderShipped.post;
  expect(op.operationId).toBe('notifyOrderShipped');
  expect(op.requestBody?.content?.['application/json'].schema.$ref).toBe('#/components/schemas/ParcelDispatchRequest');
  expect(written.slice(0, written.indexOf('\nwebhooks:'))).toBe(current.slice(0, current.indexOf('\nwebhooks:')));
  expect(written.slice(written.indexOf('\ncomponents:'))).toBe(current.slice(current.indexOf('\ncomponents:')));
});
