/**
 * An in-memory keep-alive connection for driving a node:http server in this process (no sockets):
 * bench/bindings.ts and bench/instructions.ts send requests down it.
 */
import { Duplex } from 'node:stream';
import { CALLBACK_PATH, ORDER_ID_PLACEHOLDER, bodyTemplate } from './fixtures.js';
import { benchToken } from './kit-options.js';
import { nextOrderId } from './load.js';

/** A connection the HTTP server reads requests from and writes replies to, in memory. */
export class MemorySocket extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 40_000;
  readonly remoteFamily = 'IPv4';
  readonly localAddress = '127.0.0.1';
  readonly localPort = 80;
  private out: Buffer = Buffer.alloc(0);
  private waiting: ((reply: { status: number; bytes: number }) => void) | null = null;
  _read(): void {}
  _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.out = this.out.length === 0 ? chunk : Buffer.concat([this.out, chunk]);
    this.check();
    done();
  }
  setTimeout(): this { return this; }
  setNoDelay(): this { return this; }
  setKeepAlive(): this { return this; }
  ref(): this { return this; }
  unref(): this { return this; }
  /** Sends one request; resolves with the reply's status once all of its body arrived. */
  request(bytes: Buffer): Promise<{ status: number; bytes: number }> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.push(bytes);
    });
  }
  private check(): void {
    const end = this.out.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const head = this.out.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.out.length < end + 4 + length) return;
    const status = Number(head.slice(9, 12));
    const bytes = end + 4 + length;
    this.out = this.out.subarray(bytes);
    const resolve = this.waiting;
    this.waiting = null;
    resolve({ status, bytes });
  }
}

/**
 * Raw HTTP/1.1 requests of a SendOrderToMerchant with a `lines`-line order (BENCH_LINES, default 20),
 * each with a new OrderId and the bench's bearer token: what the in-memory connection is fed.
 */
export async function orderRequestBytes(lines = Number(process.env.BENCH_LINES ?? 20)): Promise<() => Buffer> {
  const token = await benchToken();
  const [head, tail] = bodyTemplate(lines).split(ORDER_ID_PLACEHOLDER);
  return () => {
    const body = Buffer.from(head + nextOrderId() + tail);
    return Buffer.concat([Buffer.from(
      `POST ${CALLBACK_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Authorization: Bearer ${token}\r\nContent-Length: ${body.length}\r\n\r\n`, 'latin1'), body]);
  };
}
