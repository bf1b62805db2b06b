/**
 * Keys of a value that its schema does not name (every schema accepts unknown keys; a misspelt key
 * of an adapter reply is silently ignored by the service, so the kit points at it). The walk follows
 * `properties`, `items` and `$ref` between the schemas of schemas/; combinators are not entered.
 */
import { SCHEMAS } from '../generated/schemas.js';
import { SCHEMA_BASE } from './ajv.js';

type Schema = Record<string, unknown>;
const byId = new Map<string, Schema>(SCHEMAS.filter((s) => typeof s.$id === 'string').map((s) => [s.$id as string, s]));

export interface UnknownKey {
  /** JSON pointer of the object holding the key, array indexes written `[]` (e.g. `/productsList/[]`). */
  at: string;
  key: string;
  /** The names the schema knows at that place. */
  known: readonly string[];
}

function resolve(node: Schema, base: string): { node: Schema; base: string } {
  let current = node;
  let id = base;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 8; hops++) {
    const [file, fragment] = (current.$ref as string).split('#');
    const target = file ? new URL(file, id).href : id;
    let next = byId.get(target);
    if (!next) return { node: current, base: id };
    for (const part of (fragment ?? '').split('/').filter(Boolean)) next = (next as Schema)?.[part] as Schema;
    if (!next || typeof next !== 'object') return { node: current, base: id };
    // A $ref beside other keywords (e.g. a request schema adding `required`): the referenced schema names the properties.
    current = next;
    id = target;
  }
  return { node: current, base: id };
}

function walk(value: unknown, schema: Schema, base: string, at: string, out: UnknownKey[], depth: number): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  const { node, base: id } = resolve(schema, base);
  if (Array.isArray(value)) {
    if (node.items && typeof node.items === 'object') for (const item of value) walk(item, node.items as Schema, id, `${at}/[]`, out, depth + 1);
    return;
  }
  const props = node.properties as Record<string, Schema> | undefined;
  if (!props || node.additionalProperties !== undefined) return; // a map (e.g. params), not a record
  const known = Object.keys(props);
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (Object.hasOwn(props, key)) walk(v, props[key], id, `${at}/${key}`, out, depth + 1);
    else if (!out.some((u) => u.at === at && u.key === key)) out.push({ at, key, known });
  }
}

/** Unknown keys of `value` against the schema at `relativePath` under schemas/ (e.g. `callbacks/checkout-cart-info.schema.json`). */
export function unknownKeys(relativePath: string, value: unknown): UnknownKey[] {
  const schema = byId.get(SCHEMA_BASE + relativePath);
  const out: UnknownKey[] = [];
  if (schema) walk(value, schema, SCHEMA_BASE + relativePath, '', out, 0);
  return out;
}
