#!/usr/bin/env node
// Runs this package's TypeDoc (with the TypeScript 6 it supports) with the arguments given.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const typedocBin = join(dirname(require.resolve('typedoc/package.json')), 'bin', 'typedoc');
const run = spawnSync(process.execPath, [typedocBin, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
