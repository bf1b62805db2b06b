/**
 * RedisStore's Lua scripts: each one atomic on the server (Redis runs a script alone) and one round
 * trip. Times are the server's (`TIME`), so the leases of every process are judged by one clock.
 * Keys (after the store's prefix): `l:<OrderId>` the lock (hash: owner `w`, lease end `e` in ms),
 * `r:<key>` a stored reply (JSON), `p:<OrderId>` the order's payment replies (sorted set of keys by
 * time), `n:<OrderId>` the order's latest reply per callback (hash callback → key), `a:<key>` an
 * attempt (hash: count `n`, state `s`, start `t`), `m:<merchant id>` the OrderId it names, `h:<OrderId>`
 * a hold (JSON), `holds` the OrderIds with an active hold (sorted set, all scores 0: counted by prefix).
 */
import { Script } from './client.js';

/** The error text a fenced save is refused with (the lease is no longer its holder's). */
export const LEASE_LOST_REPLY = 'CBK_LEASE_LOST';

const NOW = `local function now() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end
`;

/** store(record key, payments key, latest key, json, ttl, paid, callback, member, time): 1 when stored, 0 when one was (first write wins). */
const STORE = `local function store(rk, pk, lk, json, ttl, paid, callback, member, t)
  if not redis.call('SET', rk, json, 'NX', 'PX', ttl) then return 0 end
  if paid == '1' then redis.call('ZADD', pk, 'NX', t, member) redis.call('PEXPIRE', pk, ttl) end
  redis.call('HSET', lk, callback, member)
  redis.call('PEXPIRE', lk, ttl)
  return 1
end
`;

/** KEYS: lock. ARGV: owner, lease ms, how long an expired lease is kept to tell a take-over (ms). Returns -1 held, 0 claimed, 1 taken over. */
export const CLAIM = new Script(`${NOW}local t = now()
local cur = redis.call('HMGET', KEYS[1], 'w', 'e')
local recovered = 0
if cur[1] then
  if tonumber(cur[2]) > t then return -1 end
  recovered = 1
end
redis.call('HSET', KEYS[1], 'w', ARGV[1], 'e', t + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]))
return recovered`);

/** KEYS: lock. ARGV: owner. Deletes the lock only when it is the owner's. */
export const RELEASE = new Script(`if redis.call('HGET', KEYS[1], 'w') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`);

/** KEYS: record, payments, latest. ARGV: json, ttl ms, paid (1/0), callback, member, time. */
export const SAVE = new Script(`${STORE}return store(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])`);

/**
 * The fenced save. KEYS: lock, record, payments, latest, attempt, merchant ids... ARGV: owner, json,
 * ttl ms, paid, callback, member, time, OrderId. Refused (an error reply) unless the lock is the
 * owner's and unexpired; then stores the reply, ends the attempt, keeps the merchant ids, releases.
 */
export const SAVE_AND_RELEASE = new Script(`${NOW}${STORE}local cur = redis.call('HMGET', KEYS[1], 'w', 'e')
if cur[1] ~= ARGV[1] or tonumber(cur[2]) <= now() then return redis.error_reply('${LEASE_LOST_REPLY} the lease of this attempt was lost; nothing was stored') end
store(KEYS[2], KEYS[3], KEYS[4], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
redis.call('DEL', KEYS[5])
for i = 6, #KEYS do redis.call('SET', KEYS[i], ARGV[8], 'PX', ARGV[3]) end
redis.call('DEL', KEYS[1])
return 1`);

/** KEYS: payments. ARGV: the prefix of record keys. The first payment reply still stored, or nil. */
export const FIRST_PAYMENT = new Script(`for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local v = redis.call('GET', ARGV[1] .. m)
  if v then return v end
end
return false`);

/** KEYS: latest. ARGV: callback, the prefix of record keys. */
export const LATEST = new Script(`local m = redis.call('HGET', KEYS[1], ARGV[1])
if not m then return false end
return redis.call('GET', ARGV[2] .. m)`);

/** KEYS: attempt. ARGV: ttl ms. Returns { attempt, previous outcome or '', its start ms or '' }. */
export const BEGIN_ATTEMPT = new Script(`${NOW}local a = redis.call('HMGET', KEYS[1], 'n', 's', 't')
local n = tonumber(a[1]) or 0
local prev, at = '', ''
if a[1] and a[2] ~= 'done' then
  if a[2] == 'running' then prev = 'crashed' else prev = a[2] end
  at = a[3]
end
redis.call('HSET', KEYS[1], 'n', n + 1, 's', 'running', 't', now())
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return { n + 1, prev, at }`);

/** KEYS: attempt, record. ARGV: outcome ('' for a clean end). A clean end with the reply stored forgets the attempt. */
export const END_ATTEMPT = new Script(`if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == '' and redis.call('EXISTS', KEYS[2]) == 1 then redis.call('DEL', KEYS[1])
elseif ARGV[1] == '' then redis.call('HSET', KEYS[1], 's', 'done')
else redis.call('HSET', KEYS[1], 's', ARGV[1]) end
return 1`);

/** KEYS: merchant ids. ARGV: OrderId, ttl ms. */
export const SAVE_IDS = new Script(`for i = 1, #KEYS do redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2]) end
return 0`);

/**
 * Compare-and-set of a hold. KEYS: hold, active holds. ARGV: the JSON read ('' none), the new JSON,
 * active (1/0), OrderId, ttl ms. 0 when the hold changed since it was read (the caller reads again).
 * An active hold never expires; an inactive one is forgotten after the ttl.
 */
export const SET_HOLD = new Script(`local cur = redis.call('GET', KEYS[1]) or ''
if cur ~= ARGV[1] then return 0 end
if ARGV[3] == '1' then
  redis.call('SET', KEYS[1], ARGV[2])
  redis.call('ZADD', KEYS[2], 0, ARGV[4])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[5])
  redis.call('ZREM', KEYS[2], ARGV[4])
end
return 1`);

/** KEYS: active holds. ARGV: prefix. Byte 255 never occurs in UTF-8, so '(' .. prefix .. 255 ends the prefix's range. */
export const COUNT_HOLDS = new Script(`if ARGV[1] == '' then return redis.call('ZCARD', KEYS[1]) end
return redis.call('ZLEXCOUNT', KEYS[1], '[' .. ARGV[1], '(' .. ARGV[1] .. '\\255')`);
