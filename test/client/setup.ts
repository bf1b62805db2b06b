/** Shared setup of the client tests: a client against a fake service, with a capturing logger. */
import { readFileSync } from 'node:fs';
import { createServiceClient, type ServiceClientOptions } from 'crossborder-merchant-kit/client';
import { captureLogger, type CapturingLogger } from '../helpers/recording.js';
import type { FakeService } from './fake-service.js';

export const GUID = '9d4e2b7a-5e3b-4c1a-87d2-3f6a0c9b1e24';
export const TOKEN = 'tok-abcdef-123456-secret';

export const fixture = (name: string): any =>
  JSON.parse(readFileSync(new URL(`../fixtures/service/${name}.json`, import.meta.url), 'utf8'));

export function clientFor(svc: FakeService, extra: Partial<ServiceClientOptions> = {}): { client: ReturnType<typeof createServiceClient>; log: CapturingLogger } {
  const log = captureLogger();
  const client = createServiceClient({
    baseUrl: svc.url, merchantGuid: GUID, accessToken: TOKEN, logger: log,
    retry: { retries: 2, minDelayMs: 1, maxDelayMs: 50 }, timeoutMs: 2000, ...extra,
  });
  return { client, log };
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}
