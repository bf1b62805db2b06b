/**
 * HS256 JWT verification: the kit's node:crypto path (lib/auth/jwt-hmac.ts) against jose's jwtVerify
 * (a raw key, a cached CryptoKey). Wall time per verify, median and best of 5 rounds of 20,000.
 * `node --import tsx bench/jwt-verify.ts`; the figures are in docs/performance.md.
 */
import { SignJWT, jwtVerify } from 'jose';
import { createHmacVerifier } from '../lib/auth/jwt-hmac.js';
const secret = 'a-shared-secret-of-at-least-32-bytes!!';
const key = new TextEncoder().encode(secret);
const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
const token = await new SignJWT({ sub: 'svc' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(key);
const hmac = createHmacVerifier([secret], ['HS256'], {});
async function time(name: string, f: () => Promise<unknown> | unknown, n = 20000) {
  for (let i = 0; i < 2000; i++) await f();
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await f();
    runs.push(Number(process.hrtime.bigint() - t) / n / 1000);
  }
  runs.sort((a, b) => a - b);
  console.log(name, 'µs/verify median', runs[2].toFixed(2), 'min', runs[0].toFixed(2));
}
await time('node:crypto (jwt-hmac.ts)', () => hmac(token));
await time('jose, Uint8Array key', () => jwtVerify(token, key, { algorithms: ['HS256'] }));
await time('jose, cached CryptoKey', () => jwtVerify(token, cryptoKey, { algorithms: ['HS256'] }));
