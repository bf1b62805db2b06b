/**
 * The console's Server-Sent Events stream: a snapshot when a page connects (configuration, scenarios,
 * the latest exchanges, orders), then every exchange, order change and scenario run as it happens;
 * at most `maxStreams` pages at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxEvent } from '../exchange-log.js';
import { SCENARIO_DESCRIPTIONS, SCENARIO_NAMES } from '../scenarios.js';
import { consoleViews, type ConsoleHost } from './host.js';
import { SECURITY_HEADERS, sendJson } from './http.js';
import { summarize } from './view.js';

export interface EventStreams {
  /** Answers GET /_console/events: opens a stream (or 503 when `maxStreams` are open). */
  open(req: IncomingMessage, res: ServerResponse): true;
  /** Sends an event to every open stream. */
  broadcast(event: string, data: unknown): void;
}

function write(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function createEventStreams(host: ConsoleHost, snapshotLimit: number, maxStreams: number): EventStreams {
  const streams = new Set<ServerResponse>();
  const view = consoleViews(host);

  const toStream = (event: SandboxEvent): [string, unknown] => {
    switch (event.type) {
      case 'exchange': return ['exchange', summarize(event.exchange, view.guid())];
      case 'order': return ['order', view.order(event.order)];
      case 'result': return ['result', event.result];
      default: return ['run', { ...event.scenario, state: event.type === 'scenario-started' ? 'started' : 'finished' }];
    }
  };

  const open = (req: IncomingMessage, res: ServerResponse): true => {
    if (streams.size >= maxStreams) {
      return sendJson(res, 503, { code: 'TOO_MANY_STREAMS', message: `the console serves at most ${maxStreams} open pages; close one and reload` });
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    write(res, 'snapshot', {
      config: view.config(),
      scenarios: SCENARIO_NAMES.map((name) => ({ name, description: SCENARIO_DESCRIPTIONS[name] })),
      exchanges: host.log.list().slice(-snapshotLimit).map((e) => summarize(e, view.guid())),
      // the page keeps as many as the snapshot and shows how many older ones it no longer has
      keep: snapshotLimit, total: host.log.total,
      orders: host.orders.list().map(view.order),
      // the latest scenario results and conformance table, so that a reload shows them again
      results: host.results(),
    });
    const stop = host.log.subscribe((event) => { const [name, data] = toStream(event); write(res, name, data); });
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    ping.unref();
    streams.add(res);
    const end = () => { clearInterval(ping); stop(); streams.delete(res); };
    req.on('close', end);
    res.on('close', end);
    return true;
  };

  return { open, broadcast: (event, data) => { for (const res of streams) write(res, event, data); } };
}
