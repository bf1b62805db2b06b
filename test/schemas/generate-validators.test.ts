/**
 * The validator generator (schemas/tools/generate-validators.ts): annotations leave the compiled copy
 * but a property that happens to be named like one stays; AJV's require()s become imports; the tolerant
 * module keeps the registry's request schemas as roots.
 */
import { rootsModule, validatorsModule, withoutAnnotations } from '../../schemas/tools/generate-validators.js';

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
  const strict = validatorsModule('strict', [schema], []);
  expect(strict).not.toMatch(/\brequire\(/);
  expect(strict).toContain('import * as m0 from "ajv/dist/runtime/ucs2length.js";');
  expect(strict).toContain('"callbacks/y.schema.json": v0,');
  expect(strict).toMatch(/keyword:"required"/);
  // Tolerant: `required` dropped unless the schema is a root.
  expect(validatorsModule('tolerant', [schema], [])).not.toMatch(/keyword:"required"/);
  expect(validatorsModule('tolerant', [schema], ['callbacks/y.schema.json'])).toMatch(/keyword:"required"/);
  expect(rootsModule([schema], ['callbacks/y.schema.json'])).toContain('ROOT_REQUIRED: readonly string[] = ["callbacks/y.schema.json"]');
});
