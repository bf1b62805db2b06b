/**
 * The oldest entry of a Map (insertion order), found in amortised constant time.
 *
 * `map.keys().next()` looks cheap but is not: V8 leaves a deleted entry's slot in place until the
 * table is rebuilt, and a fresh iterator walks every such slot from the start. A store that drops
 * its oldest entry on every save (a full MemoryStore, its normal state) would walk tens of
 * thousands of them each time (~12 µs per save at 50 000 entries; bench/store-full.ts). One
 * iterator kept across calls walks each deleted slot once: Map iterators survive deletions and
 * table rebuilds, and they visit entries added after them.
 */
export class OldestFirst<K, V> {
  private iterator: IterableIterator<[K, V]> | undefined;
  /** The entry the iterator stands on (not consumed: the caller may keep it). */
  private current: [K, V] | undefined;

  constructor(private readonly map: Map<K, V>) {}

  /**
   * The oldest entry still in the map, or undefined when the map is empty. The caller decides:
   * deleting it (the next call then moves on) or keeping it (the next call returns it again).
   */
  oldest(): [K, V] | undefined {
    if (this.map.size === 0) {
      this.iterator = this.current = undefined;
      return undefined;
    }
    for (;;) {
      // Still there with the same value: still the oldest (entries are only ever added after it;
      // the stores here set a new object whenever they set a key again, which moves it to the end).
      if (this.current !== undefined && this.map.get(this.current[0]) === this.current[1]) return this.current;
      let next = this.iterator?.next();
      if (next === undefined || next.done) {
        // An iterator that has ended stays ended: start again from the front.
        this.iterator = this.map.entries();
        next = this.iterator.next();
        if (next.done) return (this.current = undefined);
      }
      this.current = next.value;
    }
  }
}
