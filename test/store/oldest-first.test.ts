import { OldestFirst } from '../../lib/store/oldest-first.js';

/** A seeded generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('OldestFirst: the oldest entry of a Map, insertion order', () => {
  test('agrees with the Map\'s own first entry through 20 000 random adds, deletes, re-sets and kept entries', () => {
    const random = rng(14);
    const map = new Map<string, { n: number }>();
    const oldest = new OldestFirst(map);
    let n = 0;
    for (let step = 0; step < 20_000; step++) {
      const r = random();
      const keys = [...map.keys()];
      if (r < 0.45) map.set(`k${n}`, { n: n++ });
      else if (r < 0.6 && keys.length > 0) map.delete(keys[Math.floor(random() * keys.length)]); // from anywhere
      else if (r < 0.7 && keys.length > 0) { // set again: a new object, moved to the end
        const k = keys[Math.floor(random() * keys.length)];
        map.delete(k);
        map.set(k, { n: n++ });
      } else if (r < 0.72) map.clear();
      else if (r < 0.95 && keys.length > 0 && random() < 0.5) map.delete(oldest.oldest()![0]); // the eviction
      const first = map.entries().next();
      // Asked once or twice in a row (an entry kept by the caller is returned again).
      for (let ask = random() < 0.3 ? 2 : 1; ask > 0; ask--) {
        expect(oldest.oldest()).toEqual(first.done ? undefined : first.value);
      }
    }
  });

  test('sees entries added after it reached the end, and starts again once the map was emptied', () => {
    const map = new Map<string, number>([['a', 1]]);
    const oldest = new OldestFirst(map);
    expect(oldest.oldest()).toEqual(['a', 1]);
    map.delete('a');
    expect(oldest.oldest()).toBeUndefined();
    map.set('b', 2).set('c', 3);
    expect(oldest.oldest()).toEqual(['b', 2]);
    map.delete('b');
    expect(oldest.oldest()).toEqual(['c', 3]);
  });
});
