/**
 * Reads a request body into a Buffer from a Node stream (readBody) or a web ReadableStream
 * (readWebBody, for fetch handlers on Node, Bun and Deno). Past `limit` bytes (or a declared length
 * over it) it stops reading, without buffering more, and throws the core's 413 refusal, which the
 * binding hands over as an `unreadable` body (core/body.ts); the size check of a body read whole is
 * the core's (stages/parse.ts).
 */
import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { PipelineFailure } from '../../shared/errors.js';
import { payloadTooLarge } from '../../core/body-limit.js';

const declaredOver = (declaredLength: string | string[] | null | undefined, limit: number): boolean => {
  const declared = Number(Array.isArray(declaredLength) ? declaredLength[0] : declaredLength ?? undefined);
  return Number.isFinite(declared) && declared > limit;
};

/** Reads a web ReadableStream (a fetch Request's body); past `limit` the stream is cancelled, not read on. */
export async function readWebBody(
  body: ReadableStream<Uint8Array> | null, limit: number, declaredLength?: string | null,
): Promise<Buffer> {
  if (body === null) return Buffer.alloc(0);
  if (declaredOver(declaredLength, limit)) {
    await body.cancel().catch(() => undefined);
    throw payloadTooLarge(limit);
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (err) {
      throw new PipelineFailure('INVALID_REQUEST', `body stream error: ${(err as Error)?.message ?? String(err)}`);
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(limit);
    }
    chunks.push(chunk.value);
  }
  return chunks.length === 1 ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength) : Buffer.concat(chunks, size);
}

export function readBody(stream: Readable, limit: number, declaredLength?: string | string[]): Promise<Buffer> {
  if (declaredOver(declaredLength, limit)) {
    stream.resume();
    return Promise.reject(payloadTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err: unknown, value?: Buffer) => {
      if (done) return;
      done = true;
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('aborted', onAborted);
      if (err) {
        stream.resume();
        reject(err);
      } else resolve(value!);
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > limit) return finish(payloadTooLarge(limit));
      chunks.push(buf);
    };
    // A body that came in one chunk (most do) is used as it is, not copied.
    const onEnd = () => finish(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    const onError = (err: Error) => finish(new PipelineFailure('INVALID_REQUEST', `body stream error: ${err.message}`));
    const onAborted = () => finish(new PipelineFailure('INVALID_REQUEST', 'client aborted the request'));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('aborted', onAborted);
  });
}
