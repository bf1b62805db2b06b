/**
 * A diagnostic jest test environment (not used by `npm test`): after each test file, it lists the
 * timers the file started that are still pending and would keep a process alive (ref'd), with where
 * each was made, into test-artifacts/pending-timers.ndjson. Such a timer is what makes jest print "A
 * worker process has failed to exit gracefully" when its file is among a worker's last, and what
 * --detectOpenHandles misses when the timer ends before jest looks. Use it on suspects:
 *
 *   NODE_OPTIONS=--experimental-vm-modules npx jest test/some.test.ts --testEnvironment=./test/setup/pending-timers-environment.cjs
 *
 * It records every timer's stack (async_hooks), which slows timing-sensitive tests down.
 */
const { TestEnvironment } = require('jest-environment-node');
const { appendFileSync, mkdirSync } = require('node:fs');
const { createHook } = require('node:async_hooks');
const path = require('node:path');

const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts');
const timers = new Map();
createHook({
  init(id, type, _trigger, resource) {
    if (type === 'Timeout') timers.set(id, { resource, at: Date.now(), stack: new Error().stack.split('\n').slice(2, 14).join('\n') });
  },
  destroy(id) { timers.delete(id); },
}).enable();

class PendingTimersEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    this.startedAt = Date.now();
  }

  async teardown() {
    await new Promise((resolve) => setTimeout(resolve, 30)); // what settles right after the last test is not a leak
    const pending = [];
    for (const { resource, at, stack } of timers.values()) {
      if (at < this.startedAt || !resource.hasRef?.() || resource._destroyed) continue;
      const frames = stack.split('\n').filter((l) => !/\(?node:|node_modules|<anonymous>/.test(l)).map((l) => l.trim());
      pending.push({ ms: resource._idleTimeout, repeat: resource._repeat ?? null, madeAt: frames.slice(0, 4) });
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    appendFileSync(path.join(ARTIFACTS, 'pending-timers.ndjson'), `${JSON.stringify({ file: path.relative(path.join(__dirname, '..', '..'), this.testPath), pending })}\n`);
    await super.teardown();
  }
}

module.exports = PendingTimersEnvironment;
