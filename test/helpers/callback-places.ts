/**
 * Every place a callback must appear besides its registry entry and its CallbackTypes line (those two
 * are checked by tsc: test/types/registry.ts), as data. The walk (`missingPlaces`) takes the registry
 * entries and the places, and the places take what they read (`Sources`), so a test can walk a
 * registry with an entry no place knows, or sources with one place forgotten.
 * docs/architecture.md ("Adding a callback") lists the same places. Places derived from the registry are
 * not here: the fuzz list and the telemetry deliveries (every registry entry, its body from its builder).
 * The runtime recipes' shop (examples/runtimes/shop.mjs) is not a place: the runtime matrix runs the
 * checks of the callbacks it implements (`check --callbacks`, .ci/runtimes.mjs).
 */
import fs from 'node:fs';
import type { CallbackEntry } from '../../lib/core/registry.js';
import { SCHEMAS } from '../../lib/generated/schemas.js';
import { MODULES } from '../../lib/generated/validators/index.js';
import { CALLBACK_BUILDERS } from '../../lib/testing/builders.js';
import * as testing from '../../lib/testing/index.js';

export interface Place {
  /** Where, as a reader finds it (a file or folder). */
  readonly where: string;
  /** What must be there for the entry. */
  readonly what: string;
  has(entry: CallbackEntry): boolean;
}

/** What the places read. */
export interface Sources {
  /** The files under schemas/, by path relative to it. */
  schemaFiles: ReadonlySet<string>;
  /** lib/generated: the embedded schemas' `$id` → title, types.ts, the schemas a generated tolerant validator module holds. */
  generatedTitles: ReadonlyMap<string, string>;
  generatedTypes: string;
  tolerantValidators: readonly string[];
  openapi: string;
  callbacksDoc: string;
  /** The callbacks CALLBACK_BUILDERS (lib/testing/builders.ts) has a builder for. */
  builders: readonly string[];
  /** The callbacks whose CALLBACK_BUILDERS builder `crossborder-merchant-kit/testing` (lib/testing/index.ts) exports. */
  testingExports: readonly string[];
  conformanceDoc: string;
  /** The source of the checker's checks and the sandbox's scenarios. */
  tools: string;
  /** The example shop's adapter (its tests run every check and scenario against it). */
  exampleAdapter: string;
}

const root = new URL('../../', import.meta.url);
const read = (rel: string): string => fs.readFileSync(new URL(rel, root), 'utf8');
const filesUnder = (dir: string): string[] => fs.readdirSync(new URL(dir, root), { recursive: true, encoding: 'utf8' }).map((f) => f.replaceAll('\\', '/'));

/** The repository as it is. */
export function readSources(): Sources {
  const base = 'https://schemas.crossborder-merchant-kit.invalid/';
  return {
    schemaFiles: new Set(filesUnder('schemas/')),
    generatedTitles: new Map(SCHEMAS.map((s) => [String(s.$id).slice(base.length), String(s.title)])),
    generatedTypes: read('lib/generated/types.ts'),
    tolerantValidators: MODULES.tolerant.flatMap((m) => m.paths),
    openapi: read('schemas/openapi.yaml'),
    callbacksDoc: read('docs/callbacks.md'),
    builders: Object.keys(CALLBACK_BUILDERS),
    testingExports: Object.entries(CALLBACK_BUILDERS).filter(([, build]) => (Object.values(testing) as unknown[]).includes(build)).map(([name]) => name),
    conformanceDoc: read('docs/conformance.md'),
    tools: ['lib/tools/conformance/', 'lib/tools/sandbox/']
      .flatMap((dir) => filesUnder(dir).filter((f) => f.endsWith('.ts')).map((f) => read(`${dir}${f}`))).join('\n'),
    exampleAdapter: read('examples/basic-merchant/adapter.ts'),
  };
}

/** The name the service uses: the default path without its slash (SendRMAInfoToMerchant). */
const wireName = (e: CallbackEntry) => e.defaultPath.slice(1);

/** The methods (`get`, `post`) openapi.yaml declares for the webhook `name`. */
function webhookMethods(openapi: string, name: string): string[] {
  const lines = openapi.split('\n');
  const hooks = lines.slice(lines.indexOf('webhooks:') + 1);
  const section = hooks.slice(0, hooks.findIndex((l) => /^\S/.test(l)));
  const start = section.indexOf(`  ${name}:`);
  if (start < 0) return [];
  const block = section.slice(start + 1);
  const end = block.findIndex((l) => /^ {2}\S/.test(l));
  return (end < 0 ? block : block.slice(0, end)).flatMap((l) => /^ {4}(get|post|put|delete|patch):\s*$/.exec(l)?.[1] ?? []);
}

export function places(s: Sources): Place[] {
  return [
    {
      where: 'schemas/', what: 'its request and result schemas',
      has: (e) => s.schemaFiles.has(e.requestSchema) && s.schemaFiles.has(e.resultSchema),
    },
    {
      where: 'lib/generated/', what: 'its request type and tolerant validator, from npm run generate',
      has: (e) => {
        const title = s.generatedTitles.get(e.requestSchema);
        return title !== undefined && new RegExp(`^export (interface|type) ${title}\\b`, 'm').test(s.generatedTypes) && s.tolerantValidators.includes(e.requestSchema);
      },
    },
    {
      where: 'schemas/openapi.yaml', what: 'a webhook named as its path, with each of its methods (written by npm run generate)',
      has: (e) => {
        const declared = webhookMethods(s.openapi, wireName(e));
        return e.methods.every((m) => declared.includes(m.toLowerCase()));
      },
    },
    {
      where: 'docs/callbacks.md', what: 'its row in the callbacks table and its own section',
      has: (e) => s.callbacksDoc.split('\n').some((l) => l.startsWith('|') && l.includes(`\`${e.name}(`) && l.includes(`\`${e.defaultPath}\``))
        && new RegExp(`^## ${wireName(e)}\\b`, 'm').test(s.callbacksDoc),
    },
    {
      where: 'lib/testing/builders.ts', what: 'a `/testing` builder of its body in CALLBACK_BUILDERS',
      has: (e) => s.builders.includes(e.name),
    },
    {
      where: 'lib/testing/index.ts', what: 'its builder exported from crossborder-merchant-kit/testing',
      has: (e) => s.testingExports.includes(e.name),
    },
    {
      where: 'docs/conformance.md', what: 'its row in "The callbacks it covers" (name, default path, what sends it)',
      has: (e) => s.conformanceDoc.split('\n').some((l) => l.startsWith(`| \`${e.name}\` | \`${e.defaultPath}\` |`)),
    },
    {
      where: 'lib/tools/conformance/ or lib/tools/sandbox/', what: 'a check or scenario that sends it',
      has: (e) => s.tools.includes(`kind: '${e.name}'`),
    },
    {
      where: 'examples/basic-merchant/adapter.ts', what: 'its method in the example shop, which every check and scenario runs against',
      has: (e) => new RegExp(`^\\s+async ${e.name}\\(`, 'm').test(s.exampleAdapter),
    },
  ];
}

/** Each (callback, place) pair that is missing, as `name: where (what)`. */
export function missingPlaces(entries: readonly CallbackEntry[], placesToWalk: readonly Place[]): string[] {
  return entries.flatMap((e) => placesToWalk.filter((p) => !p.has(e)).map((p) => `${e.name}: ${p.where} (${p.what})`));
}
