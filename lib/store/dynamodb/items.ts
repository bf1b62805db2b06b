/**
 * DynamoDBStore's items: one table, partition key `pk` and sort key `sk` (both strings), a TTL
 * attribute `ttl` (epoch seconds: DynamoDB deletes expired items within days) and `e`, the expiry in
 * ms, checked on every read (an item past `e` is absent, whether DynamoDB deleted it yet or not).
 *   O#<OrderId> / lock              the OrderId lock: owner `w`, lease end `e` (ms); `q` a save being completed
 *   O#<OrderId> / pay#<time>#<key>  a copy of each payment reply (the first one is the order's payment)
 *   O#<OrderId> / latest#<callback> a copy of the latest reply of the callback
 *   R#<key> / -                     a stored reply: callback `c`, OrderId `o`, hash `h`, reply JSON `r`, payment `p`, time `t`
 *   A#<key> / -                     an attempt: count `n`, state `s`, start `t`
 *   M#<merchant id> / -             the OrderId `o` a merchant id names
 *   H#<OrderId> / -                 a hold: JSON `a` (holds.ts), version `v`; while active, `hp` = 'active' and `hs` the
 *                                   OrderId: the sparse index `active-holds` counts them
 * Every value is written as an AttributeValue by the few helpers below (no marshalling library).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { NewRecord, StoredRecord } from '../types.js';

export type Item = Record<string, AttributeValue>;

export const S = (value: string): AttributeValue => ({ S: value });
export const N = (value: number): AttributeValue => ({ N: String(value) });
export const B = (value: boolean): AttributeValue => ({ BOOL: value });

export const str = (item: Item | undefined, name: string): string | undefined => item?.[name]?.S;
export const num = (item: Item | undefined, name: string): number | undefined => (item?.[name]?.N === undefined ? undefined : Number(item[name].N));

export const key = (pk: string, sk = '-'): Item => ({ pk: S(pk), sk: S(sk) });
export const lockKey = (orderId: string) => key(`O#${orderId}`, 'lock');
export const recordKey = (k: string) => key(`R#${k}`);
export const attemptKey = (k: string) => key(`A#${k}`);
export const merchantKey = (id: string) => key(`M#${id}`);
export const holdKey = (orderId: string) => key(`H#${orderId}`);
export const orderPk = (orderId: string) => `O#${orderId}`;
/** Payment copies sort by time: 15 digits of ms hold every date to the year 33658. */
export const paymentSk = (t: number, k: string) => `pay#${String(t).padStart(15, '0')}#${k}`;
export const latestSk = (callback: string) => `latest#${callback}`;

/** The TTL attribute's value for an expiry in ms: whole seconds, rounded up. */
export const ttlOf = (expiresMs: number): AttributeValue => N(Math.ceil(expiresMs / 1000));

/** A reply's attributes (record item and its copies), saved at `t` and expiring at `e`. */
export function replyAttributes(record: NewRecord, t: number, e: number): Item {
  return {
    k: S(record.key), c: S(record.callback), o: S(record.orderId), h: S(record.hash), r: S(JSON.stringify(record.response)),
    p: B(record.payment), t: N(t), e: N(e), ttl: ttlOf(e),
  };
}

/** The stored reply of an item, or null when there is none or it expired (at `now`). */
export function recordOf(item: Item | undefined, now = Date.now()): StoredRecord | null {
  const e = num(item, 'e');
  if (!item || e === undefined || e <= now) return null;
  return {
    key: str(item, 'k')!, callback: str(item, 'c')!, orderId: str(item, 'o')!, hash: str(item, 'h')!,
    response: JSON.parse(str(item, 'r')!) as StoredRecord['response'], payment: item.p?.BOOL === true,
    createdAt: new Date(num(item, 't')!), expiresAt: new Date(e),
  };
}

/** A save being completed, kept in the lock item by the fenced write (`q`): the reply, its time, the merchant ids. */
export interface Pending { record: NewRecord; t: number; e: number; ids: string[] }
export const pendingValue = (p: Pending): AttributeValue => S(JSON.stringify(p));
export const pendingOf = (item: Item | undefined): Pending | null => (item?.q?.S ? JSON.parse(item.q.S) as Pending : null);
