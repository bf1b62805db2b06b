/**
 * Adding a callback (docs/architecture.md): every registered callback is in every place a callback
 * must appear, and a forgotten place is named. The registry entry and the CallbackTypes line are
 * checked by tsc (test/types/registry.ts).
 */
import { CALLBACK_ENTRIES, REGISTRY, type CallbackEntry } from '../lib/core/registry.js';
import { missingPlaces, places, readSources, type Sources } from './helpers/callback-places.js';

const sources = readSources();
const PLACES = places(sources);
const rma = REGISTRY.receiveRmaInfo as CallbackEntry;
const report = (name: string, where: string) => {
  const place = PLACES.find((p) => p.where === where)!;
  return `${name}: ${place.where} (${place.what})`;
};

test('every registered callback has its schemas, generated type, OpenAPI webhook, docs row and section, builder (exported), conformance row, a check that sends it and its method in the example shop', () => {
  expect(PLACES).toHaveLength(9);
  expect(missingPlaces(CALLBACK_ENTRIES, PLACES)).toEqual([]);
});

test('a callback added to the registry alone is reported missing from every place, by name', () => {
  const shipped = {
    ...REGISTRY.updateOrderShippingInfo,
    name: 'notifyOrderShipped', defaultPath: '/NotifyOrderShipped', requestSchema: 'callbacks/notify-order-shipped.request.schema.json',
  } as unknown as CallbackEntry;
  expect(missingPlaces([...CALLBACK_ENTRIES, shipped], PLACES)).toEqual(PLACES.map((p) => report('notifyOrderShipped', p.where)));
});

/** Sources with SendRMAInfoToMerchant (receiveRmaInfo) forgotten in one place. */
const FORGOTTEN: [string, Partial<Sources>][] = [
  ['schemas/', { schemaFiles: new Set([...sources.schemaFiles].filter((f) => f !== rma.requestSchema)) }],
  ['lib/generated/', { tolerantValidators: sources.tolerantValidators.filter((f) => f !== rma.requestSchema) }],
  ['schemas/openapi.yaml', { openapi: sources.openapi.replace('  SendRMAInfoToMerchant:', '  SendRmaInfo:') }],
  ['docs/callbacks.md', { callbacksDoc: sources.callbacksDoc.split('\n').filter((l) => !l.includes('`receiveRmaInfo(')).join('\n') }],
  ['lib/testing/builders.ts', { builders: sources.builders.filter((n) => n !== 'receiveRmaInfo') }],
  ['lib/testing/index.ts', { testingExports: sources.testingExports.filter((n) => n !== 'receiveRmaInfo') }],
  ['docs/conformance.md', { conformanceDoc: sources.conformanceDoc.split('\n').filter((l) => !l.startsWith('| `receiveRmaInfo` |')).join('\n') }],
  ['lib/tools/conformance/ or lib/tools/sandbox/', { tools: sources.tools.replaceAll("kind: 'receiveRmaInfo'", "kind: 'unknown'") }],
  ['examples/basic-merchant/adapter.ts', { exampleAdapter: sources.exampleAdapter.replace('async receiveRmaInfo(', 'async receiveReturn(') }],
];

test.each(FORGOTTEN)('a callback forgotten in %s is reported for that place alone', (where, forgotten) => {
  expect(missingPlaces(CALLBACK_ENTRIES, places({ ...sources, ...forgotten }))).toEqual([report('receiveRmaInfo', where)]);
});

test('each place is forgotten once above, and the docs place also wants the section, the OpenAPI place every method', () => {
  expect(FORGOTTEN.map(([where]) => where)).toEqual(PLACES.map((p) => p.where));
  const noSection = sources.callbacksDoc.replace(/^## SendRMAInfoToMerchant.*$/m, '## A return');
  expect(missingPlaces([rma], places({ ...sources, callbacksDoc: noSection }))).toEqual([report('receiveRmaInfo', 'docs/callbacks.md')]);
  const withGet = { ...rma, methods: ['GET', 'POST'] } as CallbackEntry;
  expect(missingPlaces([withGet], PLACES)).toEqual([report('receiveRmaInfo', 'schemas/openapi.yaml')]);
});
