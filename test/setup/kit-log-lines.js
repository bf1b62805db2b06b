/**
 * Keeps the kit's log lines out of `npm test`'s report (issue 41, item 8). A kit built without a
 * `logger` option logs warnings and errors as pino JSON lines on stderr (its documented default);
 * suites that build such kits — on purpose, to test the defaults — would mix dozens of those lines
 * into jest's output. Lines of that shape written to the process's stderr go to
 * test-artifacts/kit-log-lines.ndjson instead; anything else on stderr is untouched, and a test that
 * captures stderr itself (jest.spyOn(process.stderr, 'write'), test/shared/logger.test.ts) still sees
 * every line. Loaded by jest.config.js (setupFiles).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const FILE = `${ARTIFACTS}kit-log-lines.ndjson`;
const MARK = Symbol.for('crossborder-merchant-kit.test.kit-log-lines');
const stderr = process.stderr;

if (!stderr[MARK]) {
  const write = stderr.write;
  stderr[MARK] = true;
  stderr.write = function kitLogLinesAside(chunk, ...rest) {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
    if (/^\{"level":[1-6]0,"time":\d+,/.test(text)) {
      try {
        mkdirSync(ARTIFACTS, { recursive: true });
        appendFileSync(FILE, text.endsWith('\n') ? text : `${text}\n`);
      } catch { /* the report must not fail for a log file */ }
      const cb = rest.find((r) => typeof r === 'function');
      if (cb) cb();
      return true;
    }
    return write.call(this, chunk, ...rest);
  };
}
