/** What the console needs of a sandbox, and the console's views of it. */
import type { ConformanceReport } from '../../conformance/runner.js';
import type { ExchangeLog, RunResult } from '../exchange-log.js';
import type { OrderBook, OrderState } from '../orders.js';
import type { ScenarioResult } from '../scenarios.js';
import type { Catalogue } from '../catalogue.js';
import type { Exchange } from '../exchange-log.js';
import type { SendPayloadOptions } from '../resend.js';
import { configView, maskForConsole } from './view.js';

/** What the console needs of a sandbox (createSandbox's object has all of it). */
export interface ConsoleHost {
  readonly options: { merchantUrl?: string; merchantGuid: string; cartToken?: string; paths: Record<string, string> };
  readonly log: ExchangeLog;
  readonly orders: OrderBook;
  readonly url: string | undefined;
  configure(change: { merchantUrl?: string; merchantGuid?: string; cartToken?: string; paths?: Record<string, string> }): unknown;
  runScenario(name: string): Promise<ScenarioResult>;
  runCheck(): Promise<ConformanceReport>;
  /** Sends a logged callback again ("Send again"). */
  resend(exchangeId: number): Promise<Exchange>;
  /** Sends a captured payload as a callback ("Send a payload"). */
  send(options: SendPayloadOptions): Promise<Exchange>;
  /** The latest result of each scenario and of the check. */
  results(): RunResult[];
  /** The price preview (absent: the console shows none). */
  readonly catalogue?: Pick<Catalogue, 'preview'>;
}

/** The console's views of the host: the MerchantGUID now, an order masked for the page, the configuration as shown. */
export function consoleViews(host: ConsoleHost) {
  const guid = () => host.options.merchantGuid;
  return {
    guid,
    order: (o: OrderState) => maskForConsole(o, guid()),
    config: () => configView(host.options, host.url),
  };
}
