/**
 * Proving a custom store with node:test (no jest needed): `node --import tsx --test examples/custom-store/conformance.test.ts`.
 * With jest or vitest the same call takes their describe and it (test/testing/store-conformance.test.ts).
 */
import { describe, it } from 'node:test';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { MapStore } from './map-store.js';

// Only the required core: the capability checks are not registered; the first check asserts the store has none.
runStoreConformance(({ ttlMs }) => new MapStore({ ttlMs }), { describe, it, capabilities: [] });
