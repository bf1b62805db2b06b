/**
 * PostgresStore's two PL/pgSQL functions (both schema 9): a first delivery is one call of each.
 * A function runs only the statements its case needs (a replay reads one row and claims nothing),
 * which costs PostgreSQL far less than one statement of many CTEs, where every part is set up and
 * run whatever the case. Both run as their caller (SECURITY INVOKER) and are versioned by name, so
 * processes of an older and a newer kit can share one database during a rolling upgrade.
 */
import type { Tables } from './postgres-tables.js';

/** A cbk_records row as a JSON object (the columns toRecord reads). */
const JSON_RECORD = (alias: string) => ['key', 'callback', 'order_id', 'hash', 'response', 'payment', 'created_at', 'expires_at'].map((c) => `'${c}', ${alias}.${c}`).join(', ');

/**
 * The lock claim's ON CONFLICT: takes a released or expired lease row; taken_over when a holder's
 * lease expired (owner not ''), and then crashed_key/crashed_started name the holder's attempt
 * when it lived in the lock row (a first attempt), so the claimant records it as crashed.
 */
export const CLAIM_CONFLICT = `ON CONFLICT (order_id) DO UPDATE SET owner = EXCLUDED.owner, acquired_at = EXCLUDED.acquired_at,
        expires_at = EXCLUDED.expires_at, taken_over = (l.owner <> ''), attempt_key = EXCLUDED.attempt_key,
        crashed_key = CASE WHEN l.owner <> '' THEN l.attempt_key END, crashed_started = CASE WHEN l.owner <> '' THEN l.acquired_at END
      WHERE l.expires_at <= now()`;

/**
 * Records a crashed first attempt (it lived in the lock row) as an attempts row still 'running' —
 * what the next attempt is told as 'crashed'. A live row for the key is the attempt's own later
 * record (it ended, e.g. 'timeout', and was kept past it) and stays.
 */
export function recordCrash(t: Tables, rows: string): string {
  return `INSERT INTO ${t.attempts} AS a (key, order_id, attempts, state, started_at, expires_at)
        ${rows}
        ON CONFLICT (key) DO UPDATE SET attempts = 1, state = 'running', started_at = EXCLUDED.started_at, expires_at = EXCLUDED.expires_at
        WHERE a.expires_at <= now()`;
}

/** Function names in a table namespace. */
export function functionNames(t: Tables): { claim: string; save: string } {
  const q = (name: string) => (t.schema ? `"${t.schema}".${name}` : name);
  return { claim: q(FUNCTIONS.claim.name), save: q(FUNCTIONS.save.name) };
}

/** This version's functions: their names and argument types (to_regprocedure checks them). */
export const FUNCTIONS = {
  claim: { name: 'cbk_claim_v9', args: 'text, text, double precision, text, boolean, text, boolean, double precision, double precision, double precision' },
  save: { name: 'cbk_save_v9', args: 'text, text, text, text, json, boolean, double precision, text[], text, double precision, double precision' },
} as const;

/** The SQLSTATE the save function raises when the lease is no longer this attempt's (the save is rolled back). */
export const LEASE_LOST_SQLSTATE = 'CBK01';

/**
 * The start of both functions: a call that starts past its bound (it waited that long, e.g. for a
 * table lock while being bound) is refused as a statement time-out (57014); lock waits inside it
 * are bounded by the lock time-out, and by what is left of its bound (set for its transaction only).
 * p_bound_ms / p_lock_ms: 0 for none.
 */
const BOUND = `IF p_bound_ms > 0 AND clock_timestamp() - now() > p_bound_ms * interval '1 millisecond' THEN
      RAISE EXCEPTION 'crossborder-merchant-kit: the statement ran past its bound (% ms)', p_bound_ms USING ERRCODE = '57014';
    END IF;
    IF p_lock_ms > 0 OR p_bound_ms > 0 THEN
      PERFORM set_config('lock_timeout', greatest(1, least(
        CASE WHEN p_lock_ms > 0 THEN p_lock_ms ELSE 'infinity'::float8 END,
        CASE WHEN p_bound_ms > 0 THEN p_bound_ms - extract(epoch FROM clock_timestamp() - now()) * 1000 ELSE 'infinity'::float8 END))::bigint || 'ms', true);
    END IF;`;

/**
 * claim: a delivery's stored answer, else its OrderId's lock and what the kit reads under it.
 * 1. The stored reply for the key (and, in the same snapshot, the lock row's version and whether the
 *    key has a live attempts row); when found, it is returned and no lock is claimed or waited for. 2. When a payment is asked for, the
 *    order's first successful payment, likewise. 3. The claim: the lease row inserted, or taken
 *    when released or expired. 4. The reads of 1 and 2 count only when no release happened since
 *    (the lock row's version claimed is the version read in 1, the row was not deleted meanwhile,
 *    and the lock was not taken over from an expired lease): every holder's writes commit before
 *    or with its release, which bumps the version. Otherwise `is_current` is false and the caller
 *    reads again under the lock (`current` absent). 5. The latest reply of `p_latest_of`, the hold, and (p_begin) the
 *    attempt begun: each statement of a VOLATILE function takes a new snapshot, so these see every
 *    write committed before the claim. A first attempt (no live attempts row in 1, which, being
 *    current, still holds) is not written: the claim put its key in the lock row (attempt_key,
 *    in_lock); its attempts row is written only if it ends without a stored reply
 *    (endFirstAttempt) or by whoever takes over its lease (crashed_key: recorded 'running', which
 *    the next attempt is told as 'crashed').
 *    It returns one JSON object (one column parses cheaper than many): { answer, own } when an
 *    answer is stored, else { claimed, recovered, current, latest, hold, attempt, prev_state,
 *    prev_started_at, in_lock }, nulls left out.
 * save: fenced by the lease (the lock row must be this attempt's and unexpired, before and after the
 * writes, else SQLSTATE CBK01 and nothing is kept); stores a successful reply, ends its attempt cleanly (a later attempt's row 'done'; a first
 * attempt has none), keeps the merchant order ids (the first two on the reply's row,
 * merchant_id1/2: no row of their own to write) and releases the lock; one transaction (all or
 * nothing). Returns true (the lock was released).
 */
export function functionsDdl(t: Tables): string[] {
  const f = functionNames(t);
  const claim = `CREATE OR REPLACE FUNCTION ${f.claim}(p_order text, p_owner text, p_lease_ms float8, p_key text, p_payment boolean,
    p_latest_of text, p_begin boolean, p_ttl_ms float8, p_bound_ms float8, p_lock_ms float8) RETURNS json
  LANGUAGE plpgsql VOLATILE AS $fn$
  DECLARE
    v_answer json;
    v_seen boolean;
    v_snap bigint;
    v_recovered boolean;
    v_version bigint;
    v_inserted boolean;
    v_first boolean;
    v_held boolean;
    v_crashed text;
    v_crashed_at timestamptz;
    v_latest json;
    v_hold json;
    v_attempt int;
    v_prev_state text;
    v_prev_started timestamptz;
  BEGIN
    ${BOUND}
    SELECT CASE WHEN r.key IS NOT NULL THEN json_build_object(${JSON_RECORD('r')}) END, k.order_id IS NOT NULL, k.version,
        p_begin AND a.key IS NULL, k.owner <> '' AND k.expires_at > now()
      INTO v_answer, v_seen, v_snap, v_first, v_held
      FROM (SELECT 1) AS one LEFT JOIN ${t.records} r ON r.key = p_key AND r.expires_at > now()
        LEFT JOIN ${t.locks} k ON k.order_id = p_order
        LEFT JOIN ${t.attempts} a ON a.key = p_key AND a.expires_at > now();
    IF v_answer IS NOT NULL THEN RETURN json_build_object('answer', v_answer, 'own', true); END IF;
    IF p_payment THEN
      SELECT json_build_object(${JSON_RECORD('r')}) INTO v_answer
        FROM ${t.records} r WHERE r.order_id = p_order AND r.payment AND r.expires_at > now() ORDER BY r.seq ASC LIMIT 1;
      IF FOUND THEN RETURN json_build_object('answer', v_answer, 'own', false); END IF;
    END IF;
    -- Held under a live lease: not claimed, and the row is neither locked nor written (a waiting delivery's
    -- polls cost no WAL, and never queue behind a save under way that holds the row).
    IF v_held THEN RETURN json_build_object('claimed', false); END IF;
    INSERT INTO ${t.locks} AS l (order_id, owner, acquired_at, expires_at, attempt_key)
      VALUES (p_order, p_owner, now(), now() + p_lease_ms * interval '1 millisecond', CASE WHEN v_first THEN p_key END)
      ${CLAIM_CONFLICT}
      RETURNING l.taken_over, l.version, (l.xmax = 0), l.crashed_key, l.crashed_started
        INTO v_recovered, v_version, v_inserted, v_crashed, v_crashed_at;
    IF NOT FOUND THEN RETURN json_build_object('claimed', false); END IF;
    IF v_crashed IS NOT NULL THEN
      ${recordCrash(t, `VALUES (v_crashed, p_order, 1, 'running', v_crashed_at, now() + p_ttl_ms * interval '1 millisecond')`)};
    END IF;
    IF v_recovered OR v_version <> coalesce(v_snap, 0) OR (v_inserted AND v_seen) THEN
      RETURN json_build_object('claimed', true, 'recovered', v_recovered);
    END IF;
    SELECT json_build_object(${JSON_RECORD('r')}) INTO v_latest
      FROM ${t.records} r WHERE r.order_id = p_order AND r.callback = p_latest_of AND r.expires_at > now() ORDER BY r.seq DESC LIMIT 1;
    SELECT json_build_object('awaiting', h.awaiting, 'since', h.since) INTO v_hold
      FROM ${t.holds} h WHERE h.order_id = p_order AND h.awaiting IS NOT NULL;
    IF v_first THEN
      -- A first attempt lives in the lock row (attempt_key): no attempts row unless it ends without a stored reply.
      v_attempt := 1;
    ELSIF p_begin THEN
      SELECT a.state, a.started_at INTO v_prev_state, v_prev_started FROM ${t.attempts} a WHERE a.key = p_key AND a.expires_at > now();
      INSERT INTO ${t.attempts} AS a (key, order_id, attempts, state, started_at, expires_at)
        VALUES (p_key, p_order, 1, 'running', clock_timestamp(), now() + p_ttl_ms * interval '1 millisecond')
        ON CONFLICT (key) DO UPDATE SET attempts = CASE WHEN a.expires_at > now() THEN a.attempts + 1 ELSE 1 END,
          state = 'running', started_at = EXCLUDED.started_at, expires_at = EXCLUDED.expires_at
        RETURNING a.attempts INTO v_attempt;
    END IF;
    RETURN json_strip_nulls(json_build_object('claimed', true, 'recovered', false, 'current', true, 'latest', v_latest, 'hold', v_hold,
      'attempt', v_attempt, 'prev_state', v_prev_state, 'prev_started_at', v_prev_started, 'in_lock', v_first));
  END $fn$`;
  const save = `CREATE OR REPLACE FUNCTION ${f.save}(p_key text, p_callback text, p_order text, p_hash text, p_response json,
    p_payment boolean, p_ttl_ms float8, p_ids text[], p_owner text, p_bound_ms float8, p_lock_ms float8) RETURNS boolean
  LANGUAGE plpgsql VOLATILE AS $fn$
  DECLARE
    v_expires timestamptz;
  BEGIN
    ${BOUND}
    -- The fence: the lease must be this attempt's and unexpired. The row stays locked to the end, so no
    -- one can take the lease over while this runs; past its end, everything is rolled back.
    SELECT l.expires_at INTO v_expires FROM ${t.locks} l WHERE l.order_id = p_order AND l.owner = p_owner FOR UPDATE;
    IF NOT FOUND OR v_expires <= clock_timestamp() THEN
      RAISE EXCEPTION 'crossborder-merchant-kit: the lease is no longer this attempt''s; nothing was stored' USING ERRCODE = '${LEASE_LOST_SQLSTATE}';
    END IF;
    INSERT INTO ${t.records} AS r (key, callback, order_id, hash, response, payment, created_at, expires_at, merchant_id1, merchant_id2)
      VALUES (p_key, p_callback, p_order, p_hash, p_response, p_payment, now(), now() + p_ttl_ms * interval '1 millisecond', p_ids[1], p_ids[2])
      ON CONFLICT (key) DO UPDATE SET callback = EXCLUDED.callback, order_id = EXCLUDED.order_id, hash = EXCLUDED.hash,
        response = EXCLUDED.response, payment = EXCLUDED.payment, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
        merchant_id1 = EXCLUDED.merchant_id1, merchant_id2 = EXCLUDED.merchant_id2
      WHERE r.expires_at <= now();
    IF NOT FOUND AND cardinality(p_ids) > 0 THEN
      -- A live reply already had the key (first write wins): its row keeps its ids; these are kept apart.
      INSERT INTO ${t.orderIds} (merchant_order_id, order_id, expires_at)
        SELECT DISTINCT id, p_order, now() + p_ttl_ms * interval '1 millisecond' FROM unnest(p_ids) AS id
        ON CONFLICT (merchant_order_id) DO UPDATE SET order_id = EXCLUDED.order_id, expires_at = EXCLUDED.expires_at;
    ELSIF cardinality(p_ids) > 2 THEN
      INSERT INTO ${t.orderIds} (merchant_order_id, order_id, expires_at)
        SELECT DISTINCT id, p_order, now() + p_ttl_ms * interval '1 millisecond' FROM unnest(p_ids[3:]) AS id
        ON CONFLICT (merchant_order_id) DO UPDATE SET order_id = EXCLUDED.order_id, expires_at = EXCLUDED.expires_at;
    END IF;
    UPDATE ${t.attempts} SET state = 'done' WHERE key = p_key;
    UPDATE ${t.locks} SET owner = '', expires_at = '-infinity', version = version + 1, attempt_key = NULL, taken_over = false
      WHERE order_id = p_order AND owner = p_owner;
    -- A save that stalled (a slow trigger, I/O) past the lease is rolled back, not committed late.
    IF v_expires <= clock_timestamp() THEN
      RAISE EXCEPTION 'crossborder-merchant-kit: the lease ended while the reply was being stored; nothing was stored' USING ERRCODE = '${LEASE_LOST_SQLSTATE}';
    END IF;
    RETURN true;
  END $fn$`;
  return [claim, save];
}
