// Bundles a Worker as wrangler does for `nodejs_compat` (esbuild, ESM, the workerd/worker/browser
// conditions, Node built-ins left to the runtime; a CommonJS `require('crypto')` of a dependency becomes
// an import of `node:crypto`, as wrangler's nodejs_compat plugin rewrites it).
// Usage: node bundle-worker.mjs <entry> <outfile>  → prints { bytes, gzipBytes }
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';

const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`);
const nodejsCompat = {
  name: 'nodejs-compat',
  setup(build) {
    build.onResolve({ filter: BUILTIN }, (args) => {
      const name = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      if (args.kind === 'require-call') return { path: name, namespace: 'node-builtin-require' };
      return { path: name, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-builtin-require' }, (args) => ({
      contents: `import lib from ${JSON.stringify(args.path)}; module.exports = lib;`, loader: 'js',
    }));
  },
};

const [entry, outfile] = process.argv.slice(2);
await esbuild.build({
  entryPoints: [entry], outfile, bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', minify: true,
  conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'], plugins: [nodejsCompat], logLevel: 'error',
});
const code = fs.readFileSync(outfile);
console.log(JSON.stringify({ bytes: code.length, gzipBytes: zlib.gzipSync(code, { level: 9 }).length }));
