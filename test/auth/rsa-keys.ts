/**
 * The RSA key pairs of the JWT suites, made when a suite imports this module: two 2048-bit keys cost
 * about 0.3 CPU-seconds, which the auth suites that use no RSA key (fixtures.ts) no longer pay.
 */
import { generateKeyPairSync } from 'node:crypto';

export const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
export const rsaPublicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
export const rsaPrivatePem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
export const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
