/**
 * DurableObjectStore: the kit's store on Cloudflare Durable Objects, for Workers
 * (`crossborder-merchant-kit/store/durable-object`, durable-object.ts; docs/stores.md). The Worker exports
 * `CallbackStoreObject` (durable-object-object.ts) and binds it; `new DurableObjectStore(env.CALLBACK_STORE)`
 * talks to it with one request per call (durable-object-protocol.ts). One object per OrderId: the
 * per-OrderId lock is that object's own one-request-at-a-time execution, and a delivery is one
 * claim (its stored answer, else the lock with what the kit reads under it) and one fenced save
 * (reply, attempt end and release in one step, refused once the lease was lost). Merchant order ids
 * live in an object per id, the count of active holds in one index object.
 */
import { randomUUID } from 'node:crypto';
import { KitError } from '../shared/errors.js';
import { stderrOrConsole } from '../shared/logger.js';
import { checkKeys, invalid, isPlainObject, parseDuration, positiveMs } from '../shared/options.js';
import { TimeLimitError, withTimeLimit } from '../shared/time-limit.js';
import {
  HOLDS_OBJECT, keyObject, LEASE_LOST, merchantIdObject, orderObject,
  type Answer, type ClaimAnswer, type HoldAnswer, type Request, type WireAttemptStart, type WireHold, type WireRecord,
} from './durable-object-protocol.js';
import { LeaseLostError } from './store-errors.js';
import {
  DEFAULT_TTL_MS,
  type AcquireOptions, type AttemptOutcome, type AttemptStart, type Claim, type ClaimOptions, type CountHoldsOptions, type DocumentRef,
  type FulfilmentHold, type NewRecord, type Prefetched, type Store, type StoreLock, type StoredRecord,
} from './types.js';

/** A Durable Object stub: what `namespace.get(id)` returns (the part the store uses). */
export interface DurableObjectStubLike {
  /** Sends one request to the object (the store's internal protocol). */
  fetch(url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<{
    status: number;
    /** The answer's body, parsed as JSON. */
    json(): Promise<unknown>;
  }>;
}
/** The Durable Object namespace binding of `CallbackStoreObject` (`env.CALLBACK_STORE`; the part the store uses). */
export interface DurableObjectNamespaceLike {
  /** The object id for a name. */
  idFromName(name: string): unknown;
  /** The stub of an object by its id. */
  get(id: any): DurableObjectStubLike;
}

/** Options of {@link DurableObjectStore}: how long replies are kept, the request time-out, and a logger. */
export interface DurableObjectStoreOptions {
  /** How long a stored reply is kept: milliseconds or '30d' / '12h'; default 30 days. */
  ttl?: number | string;
  /** The longest a request to an object may take beyond its own wait for a lock; past it the delivery is answered 503 (retryable). Default 5000. */
  timeoutMs?: number;
  /** Where failures that do not fail the call are logged (merchant order ids not kept after a stored reply); pino-style `error(obj, msg)`. Default: one line on stderr. */
  logger?: {
    /** Writes one error line (pino-style): the object first, then the message. */
    error(obj: object, msg?: string): void;
  };
}

const stderrLogger: NonNullable<DurableObjectStoreOptions['logger']> = {
  error: (obj, msg) => {
    const err = (obj as { err?: Error }).err;
    const line = `crossborder-merchant-kit: ${msg ?? 'error'}${err ? `: ${err.message}` : ''}\n`;
    stderrOrConsole().write(line);   // workerd's process has no stderr: console.error there
  },
};

const toRecord = (r: WireRecord | null | undefined): StoredRecord | null => (r ? {
  key: r.key, callback: r.callback, orderId: r.orderId, hash: r.hash, response: r.response as StoredRecord['response'], payment: r.payment,
  createdAt: new Date(r.createdAt), expiresAt: new Date(r.expiresAt),
} : null);
const toAttempt = (a: WireAttemptStart): AttemptStart => (a.previousAttempt
  ? { attempt: a.attempt, previousAttempt: { startedAt: new Date(a.previousAttempt.startedAt), outcome: a.previousAttempt.outcome } }
  : { attempt: a.attempt });
const toHold = (orderId: string, h: WireHold | null): FulfilmentHold | null => (h ? { orderId, awaiting: h.awaiting, since: new Date(h.since) } : null);

export class DurableObjectStore implements Store {
  readonly ttlMs: number;
  readonly timeoutMs: number;
  private readonly namespace: DurableObjectNamespaceLike;
  private readonly logger: NonNullable<DurableObjectStoreOptions['logger']>;

  constructor(namespace: DurableObjectNamespaceLike, options: DurableObjectStoreOptions = {}) {
    if (typeof namespace !== 'object' || namespace === null || typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function') {
      invalid('DurableObjectStore(namespace) needs the Durable Object namespace binding of CallbackStoreObject (env.CALLBACK_STORE; see docs/bindings.md, "Cloudflare Workers")');
    }
    if (!isPlainObject(options)) invalid('DurableObjectStore options must be an object');
    checkKeys('DurableObjectStore.', options as Record<string, unknown>, ['ttl', 'timeoutMs', 'logger']);
    this.ttlMs = parseDuration(options.ttl, 'DurableObjectStore.ttl', DEFAULT_TTL_MS);
    this.timeoutMs = positiveMs(options.timeoutMs, 'DurableObjectStore.timeoutMs', 5_000);
    if (options.logger !== undefined && typeof options.logger?.error !== 'function') invalid('Option DurableObjectStore.logger must have an error(obj, msg) method');
    this.namespace = namespace;
    this.logger = options.logger ?? stderrLogger;
  }

  /** One request to the object `name`, bounded by `bound` ms; rejects with the object's error (LeaseLostError for a refused save). */
  private async call<T>(name: string, req: Request, bound = this.timeoutMs, sent?: (p: Promise<T>) => void): Promise<T> {
    const stub = this.namespace.get(this.namespace.idFromName(name));
    const answer = (async () => {
      const res = await stub.fetch('https://callback-store.invalid/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...req, at: Date.now() }) });
      const body = await res.json() as Answer;
      if (typeof body !== 'object' || body === null || !('r' in body || 'e' in body)) throw new KitError('ERR_CBK_STORE_OBJECT', `CallbackStoreObject answered ${req.op} with status ${res.status} and no answer of its protocol (is the binding CallbackStoreObject of this version?)`);
      if ('e' in body) {
        if (body.e === LEASE_LOST) throw new LeaseLostError();
        throw new KitError('ERR_CBK_STORE_OBJECT', `CallbackStoreObject failed ${req.op}: ${body.m}`);
      }
      return body.r as T;
    })();
    sent?.(answer);
    return withTimeLimit(answer, bound);
  }

  acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
    return this.claim(orderId, options, false).then((c) => c?.lock ?? null);
  }

  /** The delivery's stored answer (no lock taken) or its OrderId's lock, in one request to the order's object. */
  claimOrReplay(orderId: string, options: ClaimOptions): Promise<Claim | null> {
    return this.claim(orderId, options, true);
  }

  private async claim(orderId: string, options: AcquireOptions, replay: boolean): Promise<Claim | null> {
    const owner = randomUUID();
    const name = orderObject(orderId);
    const sent = Date.now();
    const p = options.prefetch;
    const req: Request = {
      op: 'claim', owner, leaseMs: options.leaseMs, waitMs: options.waitMs, ttlMs: this.ttlMs, replay,
      ...(p ? { prefetch: { key: p.key, payment: p.payment, latestOf: p.latestOf, beginAttempt: p.beginAttempt } } : {}),
    };
    let late: Promise<ClaimAnswer> | undefined;
    let answer: ClaimAnswer;
    try {
      answer = await this.call<ClaimAnswer>(name, req, options.waitMs + this.timeoutMs, (a) => { late = a; });
    } catch (err) {
      // Given up on, but maybe granted later: that lock is released, or the OrderId stays locked for a lease.
      if (err instanceof TimeLimitError) late?.then((a) => { if ('claimed' in a && a.claimed) void this.call(name, { op: 'release', owner }).catch(() => {}); }, () => {});
      throw err;
    }
    if ('stored' in answer) return { stored: { record: toRecord(answer.stored.record), payment: toRecord(answer.stored.payment) } };
    if (!answer.claimed) return null;
    const w = answer.prefetched;
    const prefetched: Prefetched | undefined = w && {
      record: toRecord(w.record), payment: toRecord(w.payment), latest: toRecord(w.latest), hold: toHold(orderId, w.hold),
      ...(w.attempt ? { attempt: toAttempt(w.attempt) } : {}),
    };
    // The lease ends leaseMs after the object granted it, which is at least waitedMs after this claim was sent.
    const leaseEnds = sent + answer.waitedMs + options.leaseMs;
    return { lock: this.lockOf(name, owner, leaseEnds, answer.recovered, prefetched) };
  }

  private lockOf(name: string, owner: string, leaseEnds: number, recovered: boolean, prefetched?: Prefetched): StoreLock {
    let done = false;
    return {
      recovered,
      ...(prefetched ? { prefetched } : {}),
      release: async () => {
        if (done) return;
        done = true;
        await this.call(name, { op: 'release', owner });
      },
      saveAndRelease: async (record, merchantOrderIds) => {
        if (done) return;
        // Never sent once the lease may have ended: the object would refuse it.
        if (Date.now() >= leaseEnds) throw new LeaseLostError('the lease of this attempt ended before its reply could be stored; nothing was stored');
        try {
          await this.call(name, { op: 'save', record: wire(record), ttlMs: this.ttlMs, owner });
        } catch (err) {
          // Failed once the lease may have ended: lost (had it been stored meanwhile, the caller finds its reply).
          if (!(err instanceof LeaseLostError) && Date.now() >= leaseEnds) throw new LeaseLostError();
          throw err;
        }
        done = true;
        try {
          await this.saveMerchantOrderIds(record.orderId, merchantOrderIds);
        } catch (err) {
          this.logger.error({ err: { type: (err as Error)?.name, message: (err as Error)?.message } },
            'DurableObjectStore stored a reply but could not keep its merchant order ids; the client\'s hold guard finds the order by OrderId only');
        }
      },
    };
  }

  async getRecord(key: string): Promise<StoredRecord | null> {
    return toRecord(await this.call<WireRecord | null>(keyObject(key), { op: 'get', key }));
  }

  async saveRecord(record: NewRecord): Promise<void> {
    await this.call(keyObject(record.key), { op: 'save', record: wire(record), ttlMs: this.ttlMs });
  }

  async getPayment(orderId: string): Promise<StoredRecord | null> {
    return toRecord(await this.call<WireRecord | null>(orderObject(orderId), { op: 'payment' }));
  }

  async getLatestRecord(orderId: string, callback: string): Promise<StoredRecord | null> {
    return toRecord(await this.call<WireRecord | null>(orderObject(orderId), { op: 'latest', callback }));
  }

  async beginAttempt(key: string, orderId: string): Promise<AttemptStart> {
    void orderId;
    return toAttempt(await this.call<WireAttemptStart>(keyObject(key), { op: 'begin', key, ttlMs: this.ttlMs }));
  }

  async endAttempt(key: string, outcome: AttemptOutcome | null): Promise<void> {
    await this.call(keyObject(key), { op: 'end', key, outcome });
  }

  /** A hold change in the order's object, then the index of active holds told (a rejection: the change stands; a retry tells it again). */
  private async changeHold(orderId: string, change: 'place' | 'documents' | 'release' | 'get', refs: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    const answer = await this.call<HoldAnswer>(orderObject(orderId), { op: 'hold', orderId, change, refs: [...refs], ttlMs: this.ttlMs });
    if (answer.indexed) await this.call(HOLDS_OBJECT, { op: 'indexHold', orderId, active: answer.active, version: answer.version });
    return toHold(orderId, answer.hold);
  }

  placeFulfilmentHold(orderId: string, required: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, 'place', required);
  }

  recordDocuments(orderId: string, received: readonly DocumentRef[]): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, 'documents', received);
  }

  getFulfilmentHold(orderId: string): Promise<FulfilmentHold | null> {
    return this.changeHold(orderId, 'get', []);
  }

  async releaseFulfilmentHold(orderId: string): Promise<void> {
    await this.changeHold(orderId, 'release', []);
  }

  /** The active holds the index object knows (among the OrderIds starting with `prefix`). */
  countActiveHolds(options: CountHoldsOptions = {}): Promise<number> {
    return this.call<number>(HOLDS_OBJECT, { op: 'countHolds', prefix: options.prefix ?? '' });
  }

  async saveMerchantOrderIds(orderId: string, merchantOrderIds: readonly string[]): Promise<void> {
    await Promise.all([...new Set(merchantOrderIds)].map((id) => this.call(merchantIdObject(id), { op: 'setOrderId', orderId, ttlMs: this.ttlMs })));
  }

  async findOrderId(merchantOrderId: string): Promise<string | null> {
    return this.call<string | null>(merchantIdObject(merchantOrderId), { op: 'findOrderId' });
  }

  /** One round trip to the index object (checkHealth's probe); rejects when it fails or takes longer than `timeoutMs` (default 2000). */
  async ping(options: { timeoutMs?: number } = {}): Promise<void> {
    await this.call(HOLDS_OBJECT, { op: 'ping' }, options.timeoutMs ?? 2000);
  }
}

const wire = (r: NewRecord) => ({ key: r.key, callback: r.callback, orderId: r.orderId, hash: r.hash, response: r.response as Record<string, unknown>, payment: r.payment });
