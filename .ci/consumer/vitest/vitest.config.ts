// As docs/testing.md describes: Vitest needs no configuration; this one only makes test/expect globals.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { globals: true } });
