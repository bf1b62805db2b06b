/**
 * A fresh sandbox for each test (no console, documents held back a minute) and the kit's service
 * client pointed at it: the set-up of the sandbox's documented-forms tests.
 */
import { createServiceClient, type ServiceClient } from 'crossborder-merchant-kit/client';
import { createSandbox, SANDBOX_MERCHANT_GUID, type Sandbox } from '../../lib/tools/sandbox/index.js';

/** The test's sandbox, its base URL and a client for it (read them inside a test: each test gets new ones). */
export interface SandboxWithClient {
  readonly sandbox: Sandbox;
  readonly url: string;
  readonly client: ServiceClient;
}

/**
 * Registers a `beforeEach` that starts a sandbox on a free loopback port and a client for it (the
 * sandbox's MerchantGUID, any token, no retries), and an `afterEach` that closes the sandbox.
 */
export function sandboxWithClient(): SandboxWithClient {
  let current: { sandbox: Sandbox; url: string; client: ServiceClient } | undefined;
  const now = () => {
    if (!current) throw new Error('sandboxWithClient: read the sandbox inside a test');
    return current;
  };
  beforeEach(async () => {
    const sandbox = createSandbox({ port: 0, console: false, documentsDelayMs: 60_000 });
    const url = await sandbox.listen();
    current = { sandbox, url, client: createServiceClient({ baseUrl: url, merchantGuid: SANDBOX_MERCHANT_GUID, accessToken: 'any', retry: { retries: 0 } }) };
  });
  afterEach(async () => {
    const closing = current?.sandbox.close();
    current = undefined;
    await closing;
  });
  return { get sandbox() { return now().sandbox; }, get url() { return now().url; }, get client() { return now().client; } };
}
