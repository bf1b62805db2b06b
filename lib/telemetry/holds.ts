/**
 * `cbk.holds.active`: the fulfilment holds active now, as the store counts them — not a counter
 * kept by this process, which would drift (one process places a hold, another releases it; a hold
 * released by hand). An observable gauge whose callback asks the store's optional
 * `countActiveHolds()` (the activeHolds capability; docs/stores.md), at most once every
 * `HOLDS_MAX_AGE_MS` per kit: between two counts a collection reports the last count (so the value
 * may be up to that old). A count is given `HOLDS_COUNT_TIMEOUT_MS`; a failing or late count is
 * logged once (until the store counts again) and the gauge then reports nothing for the store. A
 * late count is not started again while it runs (the next collection waits for it once more).
 *
 * One gauge per meter; each kit built registers its store as a source. Attributes: none, or
 * `cbk.store.namespace` for a namespacedStore view (a few values, chosen by the operator). Kits
 * with the same attributes (kits over the same store) report one value: the newest kit's store's —
 * nothing when that store cannot count. A source is held weakly: a kit no longer referenced stops reporting.
 */
import type { Attributes, Meter, ObservableResult } from '@opentelemetry/api';
import type { SafeLogger } from '../shared/logger.js';
import { withTimeLimit } from '../shared/time-limit.js';
import { ATTR, METRIC } from './names.js';
import { instruments, onMeter, otelPending } from './otel.js';

/** What the gauge needs of a store (the kit's store: `countActiveHolds` present only with the activeHolds capability). */
export interface HoldCountingStore {
  countActiveHolds?(options?: { prefix?: string }): Promise<number>;
  readonly namespace?: string;
}

/** How old a reported count may be (ms): a kit asks its store at most this often. */
export const HOLDS_MAX_AGE_MS = 10_000;
/** How long one count may take (ms) before that collection reports nothing for the store. */
export const HOLDS_COUNT_TIMEOUT_MS = 2_000;

export interface HoldsGaugeSettings {
  maxAgeMs?: number;
  timeoutMs?: number;
}

class HoldsSource {
  readonly attributes: Attributes;
  readonly key: string;
  private value: number | undefined;
  private countedAt = -Infinity;
  private pending: Promise<number | undefined> | undefined;
  /** The store's count still running (one at most: a hung count is waited for again, never piled up on a pool). */
  private running: Promise<number> | undefined;
  private failing = false;

  constructor(
    private readonly count: (() => Promise<number>) | undefined, namespace: string | undefined, private readonly log: SafeLogger,
    private readonly maxAgeMs: number, private readonly timeoutMs: number,
  ) {
    this.attributes = namespace === undefined ? {} : { [ATTR.storeNamespace]: namespace };
    this.key = namespace ?? '';
  }

  /** The store's count, at most `maxAgeMs` old; undefined when the store failed to count. */
  current(): Promise<number | undefined> {
    if (!this.count) return Promise.resolve(undefined);
    if (this.value !== undefined && performance.now() - this.countedAt < this.maxAgeMs) return Promise.resolve(this.value);
    this.pending ??= this.refresh().finally(() => { this.pending = undefined; });
    return this.pending;
  }

  private async refresh(): Promise<number | undefined> {
    try {
      this.running ??= Promise.resolve().then(this.count!).finally(() => { this.running = undefined; });
      const n = await withTimeLimit(this.running, this.timeoutMs);
      if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`countActiveHolds resolved to ${typeof n === 'number' ? n : typeof n}, not a count`);
      this.value = n;
      this.countedAt = performance.now();
      this.failing = false;
      return n;
    } catch (err) {
      this.value = undefined;
      if (!this.failing) {
        this.failing = true;
        this.log.warn({ err }, `${METRIC.holdsActive}: the store failed to count its active holds; the gauge reports nothing for it until it counts again`);
      }
      return undefined;
    }
  }
}

const sources = new Set<WeakRef<HoldsSource>>();
/** Dead references are dropped at each collection, and when the set doubled (kits built with no meter provider collecting). */
let pruneAt = 64;
/** Each kit's source lives as long as the kit's store (and so the kit) does. */
const sourceOfStore = new WeakMap<object, HoldsSource>();

async function observe(result: ObservableResult): Promise<void> {
  // The newest live source per attribute set (a Set iterates in insertion order).
  const newest = new Map<string, HoldsSource>();
  for (const ref of sources) {
    const source = ref.deref();
    if (source) newest.set(source.key, source);
    else sources.delete(ref);
  }
  await Promise.all([...newest.values()].map(async (source) => {
    const n = await source.current();
    if (n !== undefined) result.observe(n, source.attributes);
  }));
}

onMeter((meter: Meter) => {
  meter.createObservableGauge(METRIC.holdsActive, {
    unit: '{hold}', description: "Fulfilment holds active now (orders awaiting documents), as the store counts them; at most 10 s old",
  }).addCallback(observe);
});

/**
 * Registers the kit's store as the source of `cbk.holds.active` for its attributes (a store
 * without `countActiveHolds` then reports nothing). Called once per kit, at construction.
 */
export function observeActiveHolds(store: HoldCountingStore, log: SafeLogger, settings: HoldsGaugeSettings = {}): void {
  if (sourceOfStore.has(store)) return;
  const counter = typeof store.countActiveHolds === 'function' ? store.countActiveHolds.bind(store) : undefined;
  const source = new HoldsSource(counter && (() => counter()), store.namespace, log, settings.maxAgeMs ?? HOLDS_MAX_AGE_MS, settings.timeoutMs ?? HOLDS_COUNT_TIMEOUT_MS);
  sourceOfStore.set(store, source);
  if (sources.size >= pruneAt) {
    for (const ref of sources) if (!ref.deref()) sources.delete(ref);
    pruneAt = Math.max(64, sources.size * 2);
  }
  sources.add(new WeakRef(source));
  // A meter provider registered already gets the gauge now, not at the first delivery (once the API is loaded).
  if (!otelPending()) instruments();
}
