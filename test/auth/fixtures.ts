/** Shared pieces of the auth suites: HS secrets, a recording adapter, mounts with trust proxy on, assertions (RSA keys: rsa-keys.ts). */
import http from 'node:http';
import express from 'express';
import type { CallbackKitOptions } from 'crossborder-merchant-kit';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { createCallbackHandler } from 'crossborder-merchant-kit/node';
import { TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';
import { fastifyApp, type Mount } from '../helpers/bindings.js';
import { captureLogger, recordingAdapter, type CapturingLogger, type RecordingAdapter } from '../helpers/recording.js';

export const HS_SECRET = 'current-hs256-secret-0123456789abcdef';
export const HS_PREVIOUS = 'previous-hs256-secret-abcdef0123456789';

export interface Setup { adapter: RecordingAdapter; logger: CapturingLogger; options: CallbackKitOptions }

/** Router options with a recording adapter and logger; `auth` as given. */
export function setup(auth: CallbackKitOptions['auth'], extra: Partial<CallbackKitOptions> = {}): Setup {
  const adapter = recordingAdapter();
  const logger = captureLogger();
  return { adapter, logger, options: { merchantGuid: TEST_MERCHANT_GUID, adapter, logger, auth, ...extra } };
}

/** Like the BINDINGS mounts, with the client address taken from X-Forwarded-For (trust proxy on). */
export const TRUSTING: Array<[string, Mount]> = [
  ['express', (options) => {
    const app = express();
    app.set('trust proxy', true);
    app.use('/cb', createCallbackRouter(options));
    return app;
  }],
  ['node:http', (options) => http.createServer(createCallbackHandler({ ...options, basePath: '/cb', trustProxy: true } as CallbackKitOptions))],
  ['fastify', (options) => fastifyApp(options, { trustProxy: true })],
];

/** A refusal as the service sees it: the status, the generic body, and the adapter never called. */
export function expectRefused(res: { status: number; body: unknown }, s: Setup, status: 401 | 403 = 401): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual(status === 401
    ? { Success: false, Message: 'Unauthorized', ErrorCode: 'UNAUTHORIZED' }
    : { Success: false, Message: 'Forbidden', ErrorCode: 'FORBIDDEN' });
  expect(s.adapter.calls).toHaveLength(0);
}

/** The log line of the refusal (strategy name and reason). */
export function refusalReason(s: Setup): string {
  const line = s.logger.lines.find((l) => l.msg === 'callback refused');
  return String(line?.obj.reason ?? '');
}

export function expectAccepted(res: { status: number; body: any }, s: Setup): void {
  expect(res.status).toBe(200);
  expect(res.body.Success ?? true).toBe(true);
  expect(s.adapter.calls).toHaveLength(1);
}
