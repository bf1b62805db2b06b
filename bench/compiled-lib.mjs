// Registers bench/compiled-lib-hooks.mjs: imports of lib/ by the benchmark's own code load lib/ as tsc
// compiled it (bench/.build/, written by `npm run bench`), not the TypeScript through tsx (bench/dist.ts).
import { register } from 'node:module';

register('./compiled-lib-hooks.mjs', import.meta.url);
