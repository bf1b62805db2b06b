#!/usr/bin/env node
/**
 * The second step of `npm run build` (after `tsc -p tsconfig.build.json` wrote dist/): every entry
 * point of package.json "exports" (and the CLI's bin) bundled by esbuild, ESM with code splitting, so
 * a cold start loads a few files instead of ~80 modules (docs/performance.md, "Cold start").
 * The type declarations stay tsc's (dist/**\/*.d.ts); tsc's .js files are replaced by the bundles.
 *
 * - One esbuild run over all entry points: a module is in exactly one output file, so module state
 *   (error classes, the validators loaded, diagnostics channels) is one per process whichever entry
 *   points a program imports.
 * - The delivery core (the modules the /lambda, /fetch and /node entries import statically, except
 *   those that reach Node's http/net or a framework) is marked as reached by every entry point but
 *   /customs and /prices (a bare import of it appended to each entry; nothing is evaluated through it): esbuild
 *   splits by which entry points reach a module, so without this the core falls into ~12 chunks,
 *   each a file Node opens, compiles and links (~15 ms of a cold start); with it, one.
 * - What is loaded lazily stays lazy (`import()`: each generated validator module, jose, ...).
 * - Dependencies stay external (installed with the package), except the small files on the first
 *   delivery's path: the CommonJS ones (ipaddr.js, AJV's run-time helpers, ajv-formats' formats)
 *   spare Node's CommonJS loader and export scanner (~10 ms of a cold start), and helmet (read once, at
 *   construction) spares the /lambda and /fetch entries their only package resolution (~2 ms). Their
 *   licences are shipped in dist/THIRD-PARTY-NOTICES.md, written from what the bundles contain.
 * - Not minified (stack traces and the code users step into read as the sources), but for the generated
 *   validators' indentation.
 *
 *   node .ci/bundle-dist.mjs      (run by `npm run build`; needs dist/ from tsc)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** Entry points, relative to the project: package.json "exports" (code) and "bin". */
const entries = [
  ...Object.values(pkg.exports).filter((v) => typeof v === 'object').map((v) => v.default),
  ...Object.values(pkg.bin),
].map((p) => path.posix.normalize(p));
/** The entry points whose static graph is the delivery core. */
const HOT = ['./dist/bindings/lambda/index.js', './dist/bindings/fetch/index.js', './dist/bindings/node/index.js'].map((p) => path.posix.normalize(p));
/** Entry points that do not import the core (it is no part of what they do). */
const WITHOUT_CORE = new Set(['./dist/customs/index.js', './dist/prices/index.js'].map((p) => path.posix.normalize(p)));
/** Bare imports a core module must not reach (the fetch binding runs without them; frameworks are peers). */
const NOT_IN_CORE = /^(node:)?(http|https|net)$|^(express|fastify|pg)(\/|$)/;
/** Dependencies bundled (the rest stays external). */
const BUNDLED = /^(helmet|ipaddr\.js|ajv\/dist\/runtime\/[\w-]+\.js|ajv-formats\/dist\/formats\.js)$/;

const external = {
  name: 'external-dependencies',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED.test(args.path) ? undefined : { path: args.path, external: true }));
  },
};

/** The static module graph of the HOT entry points, from a first (unwritten) build's metafile. */
async function coreModules() {
  const { metafile } = await esbuild.build({
    absWorkingDir: root, entryPoints: HOT, bundle: true, write: false, format: 'esm', platform: 'node', outdir: path.join(root, '.core-scan'),
    metafile: true, plugins: [external], logLevel: 'error',
  });
  const inputs = metafile.inputs;
  const statics = (file) => inputs[file].imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path);
  // Modules that reach a bare import the core must not have, at any depth.
  const tainted = new Map();
  const taints = (file, stack = new Set()) => {
    if (tainted.has(file)) return tainted.get(file);
    if (stack.has(file)) return false;
    stack.add(file);
    const own = inputs[file].imports.some((i) => i.external && i.kind === 'import-statement' && NOT_IN_CORE.test(i.path));
    const result = own || statics(file).some((f) => taints(f, stack));
    tainted.set(file, result);
    return result;
  };
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    statics(file).forEach(walk);
  };
  HOT.forEach((e) => walk(e.replace(/^\.\//, '')));
  const bindingOwn = /^dist\/bindings\/(lambda|fetch|node|express|fastify)\//;
  return [...seen].filter((f) => f.startsWith('dist/') && !bindingOwn.test(f) && !taints(f));
}

const core = await coreModules();
const CORE_ID = 'kit-core-modules';
const anchor = {
  name: 'core-anchor',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${CORE_ID}$`) }, () => ({ path: CORE_ID, namespace: 'core' }));
    build.onLoad({ filter: /.*/, namespace: 'core' }, () => ({
      contents: core.map((f) => `import ${JSON.stringify(path.join(root, f))};`).join('\n'), resolveDir: root, loader: 'js',
    }));
    build.onLoad({ filter: /\.js$/ }, (args) => {
      const rel = `./${path.relative(root, args.path).split(path.sep).join('/')}`;
      if (!entries.includes(path.posix.normalize(rel)) || WITHOUT_CORE.has(path.posix.normalize(rel))) return undefined;
      // Appended: the entry's own imports are evaluated first, as tsc's module would.
      return { contents: `${fs.readFileSync(args.path, 'utf8')}\nimport ${JSON.stringify(CORE_ID)};\n`, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

const out = path.join(root, '.bundle-out');
fs.rmSync(out, { recursive: true, force: true });
const result = await esbuild.build({
  absWorkingDir: root, entryPoints: entries.map((e) => path.join(root, e)), outdir: out, outbase: dist, bundle: true, splitting: true,
  format: 'esm', platform: 'node', target: 'node20', chunkNames: 'chunks/[name]-[hash]', metafile: true,
  plugins: [anchor, external], logLevel: 'warning', legalComments: 'none',
  // The anchor's bare imports of modules the package declares free of side effects ("sideEffects": false)
  // are not evaluated through it (each module runs where the code that uses it imports it), which is as
  // it should be: they only tell esbuild which entry points reach the core (14 chunks → 3 for /lambda).
  logOverride: { 'ignored-bare-import': 'silent' },
});

// The generated validators (AJV's code, nested deep) lose their indentation: about half their bytes, ~1 ms of
// the first delivery's import; nobody steps through them.
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!Object.keys(output.inputs).some((i) => /^dist\/generated\/validators\/(?!index\.js$)/.test(i))) continue;
  const at = path.join(root, file);
  const { code } = await esbuild.transform(fs.readFileSync(at, 'utf8'), { minifyWhitespace: true, format: 'esm', target: 'node20' });
  fs.writeFileSync(at, code);
}

// The licences of the packages whose code the bundles contain (their MIT licences ask for it).
const bundledPackages = [...new Set(Object.values(result.metafile.outputs).flatMap((o) => Object.keys(o.inputs))
  .map((i) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(i)?.[1]).filter(Boolean))].sort();
const notices = bundledPackages.map((name) => {
  const dir = path.join(root, 'node_modules', name);
  const { version, license } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = fs.readdirSync(dir).find((f) => /^licen[cs]e(\.|$)/i.test(f));
  if (!file) throw new Error(`${name} is bundled into dist/ but has no licence file to ship beside it`);
  return `## ${name} ${version} (${license})\n\n\`\`\`\n${fs.readFileSync(path.join(dir, file), 'utf8').trim()}\n\`\`\`\n`;
});
fs.writeFileSync(path.join(out, 'THIRD-PARTY-NOTICES.md'), `# Third-party code in dist/\n\nThe bundles of dist/ contain code of these packages, under their licences:\n\n${notices.join('\n')}`);

// tsc's JavaScript out, the bundles in; declarations and static files stay.
const removeJs = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      removeJs(p);
      if (fs.readdirSync(p).length === 0) fs.rmdirSync(p);
    } else if (e.name.endsWith('.js')) fs.rmSync(p);
  }
};
removeJs(dist);
fs.cpSync(out, dist, { recursive: true });
fs.rmSync(out, { recursive: true, force: true });
const files = Object.keys(result.metafile.outputs).length;
const bytes = Object.keys(result.metafile.outputs).reduce((s, f) => s + fs.statSync(path.join(dist, path.relative(out, path.join(root, f)))).size, 0);
process.stdout.write(`bundled ${entries.length} entry points into ${files} files (${(bytes / 1024).toFixed(0)} kB; ${core.length} core modules in one chunk)\n`);
