/**
 * The console's static files (static/index.html, console.css, console.js), read once. They sit next
 * to this module in the sources (lib/tools/sandbox/console/static, run with tsx); in the build they are
 * dist/tools/sandbox/console/static (copied there by `npm run build`), where this module may be bundled
 * into another file of dist/ (dist/chunks/).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset { body: Buffer; type: string; etag: string }
export interface ConsoleAssets { html: Asset; css: Asset; js: Asset }

/** The folder the static files are read from. */
export const STATIC_DIR = staticDir();

function staticDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  if (existsSync(path.join(here, 'static'))) return path.join(here, 'static') + path.sep;
  // Bundled: the dist/ folder above this file holds the copied static files.
  let dir = here;
  while (path.basename(dir) !== 'dist' && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'tools', 'sandbox', 'console', 'static') + path.sep;
}

let cached: ConsoleAssets | undefined;

function read(name: string, type: string): Asset {
  let body: Buffer;
  try {
    body = readFileSync(`${STATIC_DIR}${name}`);
  } catch (err) {
    throw new Error(`the sandbox console's file ${name} is missing from ${STATIC_DIR} (a build without its static files?): ${(err as Error).message}`);
  }
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` };
}

export function loadAssets(): ConsoleAssets {
  cached ??= {
    html: read('index.html', 'text/html; charset=utf-8'),
    css: read('console.css', 'text/css; charset=utf-8'),
    js: read('console.js', 'text/javascript; charset=utf-8'),
  };
  return cached;
}
