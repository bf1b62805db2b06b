/** The callback registry: one entry per callback, and the steps ask it instead of comparing names. */
import fs from 'node:fs';
import { CALLBACK_ENTRIES, CALLBACK_NAMES, CALLBACK_SCHEMAS, DEFAULT_PATHS, ORDER_CREATION, REGISTRY } from '../../lib/core/registry.js';
import { SCHEMA_PATHS } from '../../lib/validation/index.js';

const schemaFiles = new Set(Object.values(SCHEMA_PATHS));

test('every entry names itself, its kind, methods, path, body limit and existing schemas', () => {
  for (const name of CALLBACK_NAMES) {
    const e = REGISTRY[name];
    expect(e.name).toBe(name);
    expect(typeof e.exactlyOnce).toBe('boolean');
    expect(e.idField).toMatch(/^OrderI[dD]$/);
    expect(e.methods.length).toBeGreaterThan(0);
    expect(e.defaultPath).toMatch(/^\/[A-Za-z]+$/);
    expect(['bodyLimit', 'documentsBodyLimit']).toContain(e.bodyLimit);
    expect(schemaFiles.has(e.requestSchema)).toBe(true);
    expect(schemaFiles.has(e.resultSchema)).toBe(true);
    expect(typeof e.input).toBe('function');
  }
  expect(new Set(Object.values(DEFAULT_PATHS)).size).toBe(CALLBACK_NAMES.length);
  expect(Object.keys(CALLBACK_SCHEMAS)).toEqual([...CALLBACK_NAMES]);
  expect(CALLBACK_ENTRIES.filter((e) => e.createsOrder).map((e) => e.name)).toEqual([ORDER_CREATION]);
});

test('no stage, the kit or the options compare callback names: they ask the registry entry', () => {
  const dir = new URL('../../lib/core/', import.meta.url);
  const files = ['kit.ts', 'deliver.ts', 'options.ts', 'inputs.ts', 'payload-rules.ts',
    ...['stages', 'exactly-once'].flatMap((sub) => fs.readdirSync(new URL(`${sub}/`, dir)).map((f) => `${sub}/${f}`))];
  expect(files).toEqual(expect.arrayContaining(['deliver.ts', 'stages/parse.ts', 'exactly-once/index.ts']));
  for (const file of files) {
    const source = fs.readFileSync(new URL(file, dir), 'utf8');
    for (const name of CALLBACK_NAMES) expect({ file, found: source.includes(`'${name}'`) }).toEqual({ file, found: false });
  }
});
