/**
 * What two heap snapshots (node:v8's writeHeapSnapshot, e.g. from bench/heap-growth.ts with
 * BENCH_HEAP_SNAPSHOTS) hold by kind: objects grouped by node type and constructor (or, for code,
 * strings and V8's internals, by type), their count and self size in each snapshot and the
 * difference, largest difference first. Used to say which objects grew between two points of one
 * process, or which a build keeps that another does not.
 *
 *   node --max-old-space-size=4096 --import tsx bench/heap-classes.ts <a.heapsnapshot> <b.heapsnapshot> [rows = 30]
 */
import fs from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Count and self size per group ("type name"; strings, code and arrays by type only). */
function classes(file: string): Map<string, { count: number; bytes: number }> {
  const s = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt]];
    const byName = type === 'object' || type === 'closure' || type === 'hidden' || type === 'native';
    const name = byName ? s.strings[s.nodes[i + nameAt]].slice(0, 60) : '';
    const key = `${type} ${name}`.trim();
    const row = out.get(key) ?? { count: 0, bytes: 0 };
    row.count++;
    row.bytes += s.nodes[i + sizeAt];
    out.set(key, row);
  }
  return out;
}

const [a, b] = [process.argv[2], process.argv[3]];
if (!a || !b) {
  process.stderr.write('usage: heap-classes.ts <a.heapsnapshot> <b.heapsnapshot> [rows]\n');
  process.exit(2);
}
const rows = Number(process.argv[4] ?? 30);
const [ca, cb] = [classes(a), classes(b)];
const zero = { count: 0, bytes: 0 };
const diff = [...new Set([...ca.keys(), ...cb.keys()])].map((k) => {
  const [x, y] = [ca.get(k) ?? zero, cb.get(k) ?? zero];
  return { group: k, countA: x.count, countB: y.count, bytesA: x.bytes, bytesB: y.bytes, bytes: y.bytes - x.bytes, count: y.count - x.count };
}).sort((p, q) => Math.abs(q.bytes) - Math.abs(p.bytes));
const total = (c: Map<string, { bytes: number }>) => [...c.values()].reduce((t, r) => t + r.bytes, 0);
console.log(`total self size: a ${total(ca)} B, b ${total(cb)} B, b - a ${total(cb) - total(ca)} B`);
console.log('group | count a | count b | bytes a | bytes b | b - a (bytes)');
for (const r of diff.slice(0, rows)) console.log(`${r.group} | ${r.countA} | ${r.countB} | ${r.bytesA} | ${r.bytesB} | ${r.bytes}`);
