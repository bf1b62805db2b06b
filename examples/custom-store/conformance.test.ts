/**
 * Proving a custom store with node:test (no jest needed): `node --import tsx --test examples/custom-store/conformance.test.ts`.
 * With jest or vitest the same call takes their describe and it (test/testing/store-conformance.test.ts).
 */
import { describe, it } from 'node:test';
import { runStoreConformance } from 'crossborder-merchant-kit/testing';
import { MapStore } from './map-store.js';

// Only the required core: the first check asserts the store has no optional capability, and the
// checks of each capability are reported skipped with the reason. `concurrency: Infinity` runs the
// checks at once (each test still waits for its own): about 1 s instead of 5.
runStoreConformance(({ ttlMs }) => new MapStore({ ttlMs }), { describe, it, capabilities: [], concurrency: Infinity });
