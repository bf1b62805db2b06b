/**
 * The console page over what `npm start` runs (the example merchant app and the sandbox, on free
 * loopback ports, logging nothing), in a wide window: the set-up of the console-runs and
 * console-send browser tests.
 */
import { startLoop, type Loop } from '../../examples/basic-merchant/loop.js';
import { consolePage, type ConsolePage, type ConsolePageOptions } from './chromium.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never;

/** The page, its problems and the loop it shows (read them inside a test). */
export interface LoopConsolePage extends ConsolePage {
  readonly loop: Loop;
}

/** consolePage over a quiet loop, the console opened and live; `options` as consolePage's (but `start`). */
export function loopConsolePage(options: Omit<ConsolePageOptions, 'start'> = {}): LoopConsolePage {
  let loop: Loop | undefined;
  const ui = consolePage({
    context: { viewport: { width: 1366, height: 860 } },
    ...options,
    start: async () => {
      const started = await startLoop({ merchantPort: 0, sandboxPort: 0, logger: quiet });
      loop = started;
      return { url: started.sandboxUrl, close: () => started.close() };
    },
  });
  return {
    get page() { return ui.page; },
    problems: ui.problems,
    get loop() {
      if (!loop) throw new Error('loopConsolePage: read the loop inside a test');
      return loop;
    },
  };
}
