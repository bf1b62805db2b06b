/**
 * The kit configuration of the benchmark: MerchantGUID, JWT (HS256) auth, validation, decoding, the
 * memory store and a no-op adapter. JWT and the store are enabled when the kit has them (the option
 * key is registered), so the benchmark runs on any revision; `features` says what actually ran.
 */
import { SignJWT } from 'jose';
import * as kit from '../lib/index.js';
import { OPTION_KEYS } from '../lib/core/options.js';
import type { CallbackKitOptions, MerchantAdapter } from '../lib/index.js';
import { JWT_SECRET, MERCHANT_GUID } from './fixtures.js';

export interface KitFeatures { jwt: boolean; store: string | null; validation: string; decode: boolean }

const noopAdapter: MerchantAdapter = {
  sendOrderToMerchant: (order) => ({ InternalOrderId: `INT-${order.OrderId}`, OrderId: String(order.OrderId), StatusCode: 'received' }),
  updateOrderStatus: () => {},
};

/** A memory store, if the kit exports one under a known name. */
function memoryStore(): { store: unknown; name: string } | null {
  const mod = kit as Record<string, unknown>;
  if (typeof mod.createMemoryStore === 'function') return { store: (mod.createMemoryStore as () => unknown)(), name: 'createMemoryStore()' };
  const max = Number(process.env.BENCH_STORE_MAX_ENTRIES);
  if (typeof mod.MemoryStore === 'function') {
    if (Number.isInteger(max) && max > 0) return { store: new (mod.MemoryStore as new (o: object) => unknown)({ maxEntries: max }), name: `new MemoryStore({ maxEntries: ${max} })` };
    return { store: new (mod.MemoryStore as new () => unknown)(), name: 'new MemoryStore()' };
  }
  return null;
}

export function kitOptions(): { options: CallbackKitOptions; features: KitFeatures } {
  const options: Record<string, unknown> = { merchantGuid: MERCHANT_GUID, adapter: noopAdapter };
  const features: KitFeatures = { jwt: false, store: null, validation: 'lib/validation createValidators()', decode: true };
  if (OPTION_KEYS.includes('auth')) {
    options.auth = { jwt: { secret: JWT_SECRET, algorithms: ['HS256'] } };
    features.jwt = true;
  }
  const store = OPTION_KEYS.includes('store') ? memoryStore() : null;
  if (store) {
    options.store = store.store;
    features.store = store.name;
  }
  return { options: options as unknown as CallbackKitOptions, features };
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
