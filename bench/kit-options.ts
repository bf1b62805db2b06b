/**
 * The kit configuration of the benchmark: MerchantGUID, JWT (HS256) auth, validation, decoding, the
 * memory store and a no-op adapter, built from the modules of one build (bench/dist.ts); `features`
 * says what ran.
 */
import { SignJWT } from 'jose';
import type { CallbackKitOptions, MerchantAdapter } from '../lib/index.js';
import type { Kit } from './dist.js';
import { JWT_SECRET, MERCHANT_GUID } from './fixtures.js';

export interface KitFeatures { jwt: boolean; store: string | null; validation: string; decode: boolean }

const noopAdapter: MerchantAdapter = {
  sendOrderToMerchant: (order) => ({ InternalOrderId: `INT-${order.OrderId}`, OrderId: String(order.OrderId), StatusCode: 'received' }),
  updateOrderStatus: () => {},
};

/** The benchmark's kit options, for the build `kit` (bench/dist.ts): its MemoryStore, JWT auth, default (tolerant) validation. */
export function kitOptions(kit: Kit): { options: CallbackKitOptions; features: KitFeatures } {
  const max = Number(process.env.BENCH_STORE_MAX_ENTRIES);
  const sized = Number.isInteger(max) && max > 0;
  const store = sized ? new kit.store.MemoryStore({ maxEntries: max }) : new kit.store.MemoryStore();
  const options: CallbackKitOptions = {
    merchantGuid: MERCHANT_GUID, adapter: noopAdapter, store, auth: { jwt: { secret: JWT_SECRET, algorithms: ['HS256'] } },
  };
  const features: KitFeatures = {
    jwt: true, store: sized ? `new MemoryStore({ maxEntries: ${max} })` : 'new MemoryStore()', validation: `tolerant (${kit.dir})`, decode: true,
  };
  return { options, features };
}

/** A bearer token the benchmark's JWT auth accepts (valid for an hour). */
export async function benchToken(): Promise<string> {
  return new SignJWT({ scope: 'callbacks' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .setSubject('crossborder-service')
    .sign(new TextEncoder().encode(JWT_SECRET));
}
