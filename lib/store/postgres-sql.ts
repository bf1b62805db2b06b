/**
 * PostgresStore SQL: the statements, for one table namespace (the schema: postgres-migrate.ts).
 */
import { CLAIM_CONFLICT, functionNames, recordCrash } from './postgres-functions.js';
import type { Tables } from './postgres-tables.js';

const RECORD_COLUMNS = 'key, callback, order_id, hash, response, payment, created_at, expires_at';

export function statements(t: Tables) {
  const fn = functionNames(t);
  // After a claim CTE (crashed_key, crashed_started): records a crashed first attempt. $1 order, `ttl` the ttl's parameter.
  const crashCte = (ttl: string) => `crash AS (${recordCrash(t,
    `SELECT c.crashed_key, $1, 1, 'running', c.crashed_started, now() + ${ttl} * interval '1 millisecond' FROM claim c WHERE c.crashed_key IS NOT NULL`)})`;
  return {
    /*
     * Claims the lock when free or its lease expired; taken_over: a holder's lease expired (owner
     * not ''), whose first attempt, if it lived in the lock row, is recorded as crashed.
     * $1 order, $2 owner, $3 lease ms, $4 ttl ms.
     */
    acquire: `WITH claim AS (INSERT INTO ${t.locks} AS l (order_id, owner, acquired_at, expires_at)
        SELECT $1, $2, now(), now() + $3 * interval '1 millisecond'
          WHERE NOT EXISTS (SELECT 1 FROM ${t.locks} WHERE order_id = $1 AND owner <> '' AND expires_at > now())
        ${CLAIM_CONFLICT}
        RETURNING taken_over, crashed_key, crashed_started),
      ${crashCte('$4')}
      SELECT taken_over AS recovered FROM claim`,
    // A released row stays (owner '', claimable at once); its version counts the releases.
    release: `UPDATE ${t.locks} SET owner = '', expires_at = '-infinity', version = version + 1, attempt_key = NULL, taken_over = false
      WHERE order_id = $1 AND owner = $2`,
    /*
     * Claims the lock and reads what the kit reads under it, in one statement. Reads see the
     * statement's snapshot, which may predate a release this claim waited for: they count only
     * when the lock row's version in the snapshot is the version claimed (every holder's writes
     * commit before or with its release, which bumps the version), the row was not deleted
     * meanwhile, and the lock was not taken over from an expired lease. Only then is the attempt
     * begun here.
     * $1 order, $2 owner, $3 lease ms, $4 key, $5 payment wanted, $6 latest-of callback, $7 begin the attempt, $8 ttl ms.
     */
    claimAndRead: `WITH snap AS (SELECT version FROM ${t.locks} WHERE order_id = $1),
      claim AS (INSERT INTO ${t.locks} AS l (order_id, owner, acquired_at, expires_at)
        SELECT $1, $2, now(), now() + $3 * interval '1 millisecond'
          WHERE NOT EXISTS (SELECT 1 FROM ${t.locks} WHERE order_id = $1 AND owner <> '' AND expires_at > now())
        ${CLAIM_CONFLICT}
        RETURNING taken_over, version, (xmax = 0) AS inserted, crashed_key, crashed_started),
      ${crashCte('$8')},
      -- A row the snapshot has but the claim did not find was deleted meanwhile (purge; an older kit's release).
      cur AS (SELECT 1 FROM claim WHERE NOT taken_over AND version = coalesce((SELECT version FROM snap), 0)
        AND NOT (inserted AND EXISTS (SELECT 1 FROM snap))),
      rec AS (SELECT ${RECORD_COLUMNS} FROM ${t.records} WHERE key = $4 AND expires_at > now()),
      pay AS (SELECT ${RECORD_COLUMNS} FROM ${t.records} WHERE $5 AND order_id = $1 AND payment AND expires_at > now() ORDER BY seq ASC LIMIT 1),
      latest AS (SELECT ${RECORD_COLUMNS} FROM ${t.records} WHERE order_id = $1 AND callback = $6 AND expires_at > now() ORDER BY seq DESC LIMIT 1),
      hold AS (SELECT awaiting, since FROM ${t.holds} WHERE order_id = $1 AND awaiting IS NOT NULL),
      prev AS (SELECT state, started_at FROM ${t.attempts} WHERE key = $4 AND expires_at > now()),
      att AS (INSERT INTO ${t.attempts} AS a (key, order_id, attempts, state, started_at, expires_at)
        SELECT $4, $1, 1, 'running', clock_timestamp(), now() + $8 * interval '1 millisecond' FROM cur
        WHERE $7 AND NOT EXISTS (SELECT 1 FROM rec) AND NOT EXISTS (SELECT 1 FROM pay)
        ON CONFLICT (key) DO UPDATE SET attempts = CASE WHEN a.expires_at > now() THEN a.attempts + 1 ELSE 1 END,
          state = 'running', started_at = EXCLUDED.started_at, expires_at = EXCLUDED.expires_at
        RETURNING attempts)
      SELECT EXISTS (SELECT 1 FROM claim) AS claimed, coalesce((SELECT taken_over FROM claim), false) AS recovered,
        EXISTS (SELECT 1 FROM cur) AS current,
        (SELECT row_to_json(rec) FROM rec) AS record, (SELECT row_to_json(pay) FROM pay) AS payment,
        (SELECT row_to_json(latest) FROM latest) AS latest, (SELECT row_to_json(hold) FROM hold) AS hold,
        (SELECT attempts FROM att) AS attempts, (SELECT state FROM prev) AS prev_state, (SELECT started_at FROM prev) AS prev_started_at`,
    // The functions of postgres-functions.ts: a delivery's stored answer or its lock (and reads); save-and-release.
    // The key's own stored reply is answered without calling the function (the function checks again, in its own snapshot).
    claim: `WITH rec AS (SELECT ${RECORD_COLUMNS} FROM ${t.records} WHERE key = $4 AND expires_at > now())
      SELECT json_build_object('answer', row_to_json(rec), 'own', true) AS r FROM rec
      UNION ALL
      SELECT ${fn.claim}($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) WHERE NOT EXISTS (SELECT 1 FROM rec)`,
    saveAndRelease: `SELECT ${fn.save}($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) AS released`,
    /*
     * Batches (postgres-batch.ts): several deliveries' claims, or saves, in one statement and one
     * transaction, run in the order of the array $1 (the functions are called as the elements are
     * read; json_agg's ORDER BY only orders the results). One result per element: claimBatch the
     * claim function's JSON, saveBatch whether the lock was released.
     */
    claimBatch: `SELECT json_agg(${fn.claim}(e->>'o', e->>'w', (e->>'l')::float8, e->>'k', (e->>'p')::boolean, e->>'c',
        (e->>'b')::boolean, (e->>'t')::float8, (e->>'x')::float8, (e->>'y')::float8) ORDER BY n) AS r
      FROM json_array_elements($1::json) WITH ORDINALITY AS x(e, n)`,
    saveBatch: `SELECT json_agg(${fn.save}(e->>'k', e->>'c', e->>'o', e->>'h', e->'r', (e->>'p')::boolean, (e->>'t')::float8,
        ARRAY(SELECT json_array_elements_text(e->'i')), e->>'w', (e->>'x')::float8, (e->>'y')::float8) ORDER BY n) AS r
      FROM json_array_elements($1::json) WITH ORDINALITY AS x(e, n)`,
    // A delivery's stored answer alone: $2 key's own reply (own) or, when $3, the order $1's first payment.
    lookup: `WITH rec AS (SELECT ${RECORD_COLUMNS} FROM ${t.records} WHERE key = $2 AND expires_at > now())
      SELECT row_to_json(f) AS answer, true AS own FROM rec f
      UNION ALL (SELECT row_to_json(f), false FROM (SELECT ${RECORD_COLUMNS} FROM ${t.records}
        WHERE $3 AND NOT EXISTS (SELECT 1 FROM rec) AND order_id = $1 AND payment AND expires_at > now() ORDER BY seq ASC LIMIT 1) f)`,
    getRecord: `SELECT ${RECORD_COLUMNS} FROM ${t.records} WHERE key = $1 AND expires_at > now()`,
    getPayment: `SELECT ${RECORD_COLUMNS} FROM ${t.records}
      WHERE order_id = $1 AND payment AND expires_at > now() ORDER BY seq ASC LIMIT 1`,
    getLatest: `SELECT ${RECORD_COLUMNS} FROM ${t.records}
      WHERE order_id = $1 AND callback = $2 AND expires_at > now() ORDER BY seq DESC LIMIT 1`,
    saveRecord: `INSERT INTO ${t.records} AS r (key, callback, order_id, hash, response, payment, created_at, expires_at)
      VALUES ($1, $2, $3, $4, $5, $6, now(), now() + $7 * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET callback = EXCLUDED.callback, order_id = EXCLUDED.order_id, hash = EXCLUDED.hash,
        response = EXCLUDED.response, payment = EXCLUDED.payment, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
      WHERE r.expires_at <= now()`,
    ensureHold: `INSERT INTO ${t.holds} (order_id, received, updated_at, expires_at)
      VALUES ($1, '[]', now(), now() + $2 * interval '1 millisecond') ON CONFLICT (order_id) DO NOTHING`,
    lockHold: `SELECT awaiting, received, since, (awaiting IS NULL AND expires_at <= now()) AS stale
      FROM ${t.holds} WHERE order_id = $1 FOR UPDATE`,
    writeHold: `UPDATE ${t.holds} SET awaiting = $2, received = $3, since = $4, updated_at = now(),
      expires_at = CASE WHEN $2::jsonb IS NULL THEN now() + $5 * interval '1 millisecond' ELSE NULL END
      WHERE order_id = $1`,
    // cbk.holds.active: active holds never expire (only inactive rows do); starts_with, not LIKE (a prefix may hold '_').
    countHolds: `SELECT count(*)::int AS active FROM ${t.holds} WHERE awaiting IS NOT NULL AND starts_with(order_id, $1)`,
    getHold: `SELECT awaiting, since FROM ${t.holds} WHERE order_id = $1 AND awaiting IS NOT NULL`,
    releaseHold: `UPDATE ${t.holds} SET awaiting = NULL, since = NULL, updated_at = now(),
      expires_at = now() + $2 * interval '1 millisecond' WHERE order_id = $1 AND awaiting IS NOT NULL`,
    saveOrderIds: `INSERT INTO ${t.orderIds} (merchant_order_id, order_id, expires_at)
      SELECT DISTINCT id, $1, now() + $3 * interval '1 millisecond' FROM unnest($2::text[]) AS id
      ON CONFLICT (merchant_order_id) DO UPDATE SET order_id = EXCLUDED.order_id, expires_at = EXCLUDED.expires_at`,
    // The latest save wins: a reply's row (the ids of a created order) or a cbk_order_ids row (saveMerchantOrderIds).
    findOrderId: `SELECT order_id FROM (
        (SELECT order_id, expires_at FROM ${t.records} WHERE merchant_id1 = $1 AND expires_at > now() ORDER BY expires_at DESC LIMIT 1)
        UNION ALL (SELECT order_id, expires_at FROM ${t.records} WHERE merchant_id2 = $1 AND expires_at > now() ORDER BY expires_at DESC LIMIT 1)
        UNION ALL SELECT order_id, expires_at FROM ${t.orderIds} WHERE merchant_order_id = $1 AND expires_at > now()) AS found
      ORDER BY expires_at DESC LIMIT 1`,
    purgeOrderIds: `DELETE FROM ${t.orderIds} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${t.orderIds} WHERE expires_at <= now() LIMIT $1))`,
    // The CTE reads the row as it was before this statement (one snapshot): the previous attempt.
    beginAttempt: `WITH prev AS (SELECT state, started_at FROM ${t.attempts} WHERE key = $1 AND expires_at > now())
      INSERT INTO ${t.attempts} AS a (key, order_id, attempts, state, started_at, expires_at)
      VALUES ($1, $2, 1, 'running', clock_timestamp(), now() + $3 * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET attempts = CASE WHEN a.expires_at > now() THEN a.attempts + 1 ELSE 1 END,
        state = 'running', started_at = EXCLUDED.started_at, expires_at = EXCLUDED.expires_at
      RETURNING attempts, (SELECT state FROM prev) AS prev_state, (SELECT started_at FROM prev) AS prev_started_at`,
    endAttempt: `UPDATE ${t.attempts} SET state = $2 WHERE key = $1`,
    /*
     * Ends a first attempt that lived in the lock row: its attempts row is written now (attempt 1,
     * started when the lock was claimed); when the lock row no longer names it (taken over), as endAttempt.
     * $1 key, $2 state, $3 order, $4 ttl ms.
     */
    endFirstAttempt: `WITH held AS (SELECT acquired_at FROM ${t.locks} WHERE order_id = $3 AND attempt_key = $1),
      ins AS (INSERT INTO ${t.attempts} AS a (key, order_id, attempts, state, started_at, expires_at)
        SELECT $1, $3, 1, $2, acquired_at, now() + $4 * interval '1 millisecond' FROM held
        ON CONFLICT (key) DO UPDATE SET state = EXCLUDED.state,
          attempts = CASE WHEN a.expires_at > now() THEN a.attempts ELSE 1 END,
          started_at = CASE WHEN a.expires_at > now() THEN a.started_at ELSE EXCLUDED.started_at END,
          expires_at = CASE WHEN a.expires_at > now() THEN a.expires_at ELSE EXCLUDED.expires_at END
        RETURNING 1)
      UPDATE ${t.attempts} SET state = $2 WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM held)`,
    purgeAttempts: `DELETE FROM ${t.attempts} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${t.attempts} WHERE expires_at <= now() LIMIT $1))`,
    // The purges delete at most $1 rows each (bounded batches, run again while they fill).
    purgeElect: `SELECT pg_try_advisory_lock(hashtext($1)) AS elected`,
    purgeResign: `SELECT pg_advisory_unlock(hashtext($1))`,
    purgeRecords: `DELETE FROM ${t.records} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${t.records} WHERE expires_at <= now() LIMIT $1))`,
    purgeHolds: `DELETE FROM ${t.holds} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${t.holds} WHERE awaiting IS NULL AND expires_at <= now() LIMIT $1))`,
    // Lock rows released or expired over an hour ago (a released row's expires_at is -infinity: its last claim counts).
    purgeLocks: `DELETE FROM ${t.locks} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${t.locks} WHERE greatest(acquired_at, expires_at) <= now() - interval '1 hour' LIMIT $1))`,
  };
}

export type StatementName = keyof ReturnType<typeof statements>;
