/**
 * The validator generator (schemas/tools/generate-validators.ts): annotations leave the compiled copy
 * but a property that happens to be named like one stays; AJV's require()s become imports; the tolerant
 * module keeps the registry's request schemas as roots.
 */
import { loadersModule, reachableSchemas, rootsModule, validatorFiles, validatorsModule, withoutAnnotations } from '../../schemas/tools/generate-validators.js';

const BASE = 'https://schemas.crossborder-merchant-kit.invalid/';

test('annotations are dropped, data and properties named like annotations are kept', () => {
  const schema = {
    $id: `${BASE}callbacks/x.schema.json`, title: 'X', description: 'd', $comment: 'c', type: 'object',
    required: ['title'], properties: { title: { type: 'string', description: 'the title' }, description: { enum: ['title'] } },
  };
  expect(withoutAnnotations(schema)).toEqual({
    $id: `${BASE}callbacks/x.schema.json`, type: 'object', required: ['title'],
    properties: { title: { type: 'string' }, description: { enum: ['title'] } },
  });
});

test('a generated module imports AJV\'s helpers (no require) and lists every schema it validates', () => {
  const schema = { $id: `${BASE}callbacks/y.schema.json`, type: 'object', required: ['Name'], properties: { Name: { type: 'string', minLength: 1 } } };
  const strict = validatorsModule('strict', [schema], [], ['callbacks/y.schema.json']);
  expect(strict).not.toMatch(/\brequire\(/);
  expect(strict).toContain('import * as m0 from "ajv/dist/runtime/ucs2length.js";');
  expect(strict).toContain('"callbacks/y.schema.json": v0,');
  expect(strict).toMatch(/keyword:"required"/);
  // Tolerant: `required` dropped unless the schema is a root.
  expect(validatorsModule('tolerant', [schema], [], ['callbacks/y.schema.json'])).not.toMatch(/keyword:"required"/);
  expect(validatorsModule('tolerant', [schema], ['callbacks/y.schema.json'], ['callbacks/y.schema.json'])).toMatch(/keyword:"required"/);
  expect(rootsModule([schema], ['callbacks/y.schema.json'])).toContain('ROOT_REQUIRED: readonly string[] = ["callbacks/y.schema.json"]');
});

test('the modules are split per root schema and kind; roots that share most of their schemas share a module', () => {
  const ref = (rel: string) => ({ $ref: rel });
  const big = { $id: `${BASE}callbacks/order.schema.json`, type: 'object', properties: { A: ref('./part.schema.json'), B: ref('../common.schema.json#/$defs/Id') } };
  const part = { $id: `${BASE}callbacks/part.schema.json`, type: 'string' };
  const common = { $id: `${BASE}common.schema.json`, $defs: { Id: { type: 'string' } } };
  const a = { $id: `${BASE}callbacks/a.request.schema.json`, type: 'object', properties: { O: ref('./order.schema.json') } };
  const b = { $id: `${BASE}callbacks/b.request.schema.json`, allOf: [ref('./order.schema.json')] };
  const c = { $id: `${BASE}callbacks/c.request.schema.json`, type: 'object', properties: { Id: ref('../common.schema.json#/$defs/Id') } };
  const r = { $id: `${BASE}callbacks/r.schema.json`, type: 'object' };
  const schemas = [big, part, common, a, b, c, r];
  expect(reachableSchemas('callbacks/a.request.schema.json', schemas))
    .toEqual(['callbacks/a.request.schema.json', 'callbacks/order.schema.json', 'callbacks/part.schema.json', 'common.schema.json']);
  const files = validatorFiles(schemas, ['callbacks/a.request.schema.json', 'callbacks/b.request.schema.json', 'callbacks/c.request.schema.json'], ['callbacks/r.schema.json']);
  expect(files.map((f) => f.file)).toEqual([
    'strict-a.request+b.request.ts', 'strict-c.request.ts', 'tolerant-a.request+b.request.ts', 'tolerant-c.request.ts',
    'report-a.request+b.request.ts', 'report-c.request.ts', 'strict-r.ts', 'strict-all.ts',
  ]);
  expect(files.find((f) => f.file === 'strict-c.request.ts')!.exported).toEqual(['callbacks/c.request.schema.json', 'common.schema.json']);
  expect(files.find((f) => f.file === 'strict-all.ts')!.exported).toHaveLength(schemas.length);
  const loaders = loadersModule(files);
  // Every module but strict-all is a lazy import; strict-all is imported statically by what needs it.
  expect(loaders).toContain('import("./report-c.request.js")');
  expect(loaders).not.toContain('strict-all');
  expect(loaders).not.toMatch(/^import /m);
});
