/**
 * The two functions of jose the JWT strategy uses, in their own module so that jwt.ts can import it
 * lazily (at the first public-key or JWKS verification) and a bundler still keeps only these two.
 */
export { createRemoteJWKSet, jwtVerify } from 'jose';
