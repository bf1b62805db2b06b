/**
 * Reads a request stream into a Buffer, refusing more than `limit` bytes (413) without buffering them.
 */
import type { Readable } from 'node:stream';
import { PipelineFailure } from '../shared/errors.js';

export function payloadTooLarge(limit: number): PipelineFailure {
  return new PipelineFailure('PAYLOAD_TOO_LARGE', `body exceeds the limit of ${limit} bytes`,
    `The request body exceeds the limit of ${limit} bytes`, { connection: 'close' });
}

export function readBody(stream: Readable, limit: number, declaredLength?: string | string[]): Promise<Buffer> {
  const declared = Number(Array.isArray(declaredLength) ? declaredLength[0] : declaredLength);
  if (Number.isFinite(declared) && declared > limit) {
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
