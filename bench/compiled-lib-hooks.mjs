// Module resolution hook (bench/compiled-lib.mjs): a module of lib/ resolves to its tsc output in
// bench/.build/ (`tsc -p tsconfig.build.json --outDir bench/.build`, which `npm run bench` runs first), so
// what the benchmark times is compiled JavaScript, as the package ships it, not lib/'s TypeScript
// transformed by tsx. Without bench/.build (a tool run on its own, before any `npm run bench`), lib/ is
// loaded as it is, through tsx, and the process says so once.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const LIB = new URL('../lib/', import.meta.url).href;
const BUILD = new URL('./.build/', import.meta.url).href;
const built = fs.existsSync(fileURLToPath(BUILD));
let warned = false;

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (!resolved.url.startsWith(LIB)) return resolved;
  if (!built) {
    if (!warned) process.stderr.write('bench: bench/.build is missing (npm run bench compiles lib/ there): lib/ is loaded through tsx\n');
    warned = true;
    return resolved;
  }
  const url = BUILD + resolved.url.slice(LIB.length).replace(/\.ts$/, '.js');
  if (!fs.existsSync(fileURLToPath(url))) {
    throw new Error(`${url} is missing: bench/.build is older than lib/; run \`npm run bench\` (it compiles lib/ there first), or tsc -p tsconfig.build.json --outDir bench/.build --declaration false`);
  }
  return { ...resolved, url, format: 'module' };
}
