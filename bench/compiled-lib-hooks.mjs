// Module resolution hook (bench/compiled-lib.mjs): a module of lib/ resolves to its tsc output in
// bench/.build/ (`tsc -p tsconfig.build.json --outDir bench/.build`), so what the benchmark times is
// compiled JavaScript, as the package ships it, never lib/'s TypeScript transformed by tsx.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const LIB = new URL('../lib/', import.meta.url).href;
const BUILD = new URL('./.build/', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (!resolved.url.startsWith(LIB)) return resolved;
  const url = BUILD + resolved.url.slice(LIB.length).replace(/\.ts$/, '.js');
  if (!fs.existsSync(fileURLToPath(url))) {
    throw new Error(`${url} is missing: run \`npm run bench\` (it compiles lib/ into bench/.build/ first), or tsc -p tsconfig.build.json --outDir bench/.build`);
  }
  return { ...resolved, url, format: 'module' };
}
