/**
 * What building a stage result costs in V8, per object: a spread that only replaces fields, a spread
 * followed by fields the source lacks (`{ ...delivery, deviations }`), and the same fields listed in one
 * literal. The second is what made issue 37's stage results slow (bench/NOTES.md, "Steady state within 5 %").
 *
 *   node bench/spread-cost.mjs
 */
const delivery = (i) => ({
  callback: 'SendOrderToMerchant', entry: {}, request: {}, body: {}, context: {}, log: {},
  payload: { i }, input: { i }, envelope: undefined, orderId: `GE${i}`, nullFree: true, cardMask: undefined, cardDigest: undefined,
});
const listed = (d) => ({
  callback: d.callback, entry: d.entry, request: d.request, body: d.body, context: d.context, log: d.log,
  payload: d.payload, input: d.input, envelope: d.envelope, orderId: d.orderId, nullFree: d.nullFree, cardMask: d.cardMask, cardDigest: d.cardDigest,
  fingerprint: 'f', key: 'k', payment: false,
});
const ways = {
  'spread, fields replaced': (d) => ({ ...d, input: d.input }),
  'spread, one field added': (d) => ({ ...d, deviations: undefined }),
  'spread, three fields added': (d) => ({ ...d, fingerprint: 'f', key: 'k', payment: false }),
  'the same three, listed in one literal': listed,
};
let sink;
for (let round = 0; round < 3; round++) {
  for (const [name, build] of Object.entries(ways)) {
    const n = 500_000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink = build(delivery(i));
    if (round === 2) console.log(`${name.padEnd(40)} ${(Number(process.hrtime.bigint() - started) / n).toFixed(0)} ns per object`);
  }
}
void sink;
