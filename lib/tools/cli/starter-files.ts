/**
 * The files `crossborder-merchant-kit init` writes: a runnable TypeScript ESM app (run with tsx) whose
 * adapter passes the conformance checker, mounted at /crossborder, with the chosen binding and store.
 * Pure: names and contents only (init.ts writes them). The store's part is starter-store.ts.
 */
import {
  q, STARTER_STORE_CLASS, storeEnv, storeExtraFiles, storeFile, storePackage, storeReadme, storeSteps, storeTestSetup, type StarterStore,
} from './starter-store.js';

export const STARTER_BINDINGS = ['express', 'fetch', 'fastify', 'lambda'] as const;
export type StarterBinding = (typeof STARTER_BINDINGS)[number];
export { STARTER_STORES, type StarterStore } from './starter-store.js';

export interface StarterChoice {
  /** The app's package name (the directory's name, made a valid one). */
  name: string;
  binding: StarterBinding;
  store: StarterStore;
  /** The kit's version the app depends on. */
  kitVersion: string;
}

/** The test MerchantGUID the app uses until MERCHANT_GUID is set (the testing builders' own). */
export const STARTER_TEST_GUID = '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6b';
export const STARTER_CART_TOKEN = 'cart-123';

function packageJson(c: StarterChoice): string {
  const dependencies: Record<string, string> = { 'crossborder-merchant-kit': `^${c.kitVersion}` };
  const devDependencies: Record<string, string> = { '@types/node': '^22.0.0', tsx: '^4.19.0', typescript: '^5.6.0' };
  if (c.binding === 'express') { dependencies.express = '^5.1.0'; devDependencies['@types/express'] = '^5.0.0'; }
  if (c.binding === 'fastify') dependencies.fastify = '^5.0.0';
  const forStore = storePackage(c.store);
  Object.assign(dependencies, forStore.dependencies);
  Object.assign(devDependencies, forStore.devDependencies);
  return `${JSON.stringify({
    name: c.name, private: true, type: 'module',
    scripts: {
      start: 'tsx src/server.ts',
      test: 'tsc --noEmit && node --import tsx --test test/adapter.test.ts test/conformance.test.ts',
      ...forStore.scripts,
    },
    dependencies, devDependencies,
  }, null, 2)}\n`;
}

const TSCONFIG = `${JSON.stringify({
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true,
    noEmit: true, types: ['node'], allowImportingTsExtensions: false,
  },
  include: ['src', 'test'],
}, null, 2)}\n`;

function envExample(c: StarterChoice): string {
  return [
    '# Copy to .env (or set in your environment). The MerchantGUID is the service\'s; this one is a test GUID.',
    `MERCHANT_GUID=${STARTER_TEST_GUID}`,
    'PORT=3000',
    ...storeEnv(c.store),
    '',
  ].join('\n');
}

const CONFIG = `// Settings from the environment (see .env.example); the defaults are for trying the app locally.
export const merchantGuid = process.env.MERCHANT_GUID ?? ${q(STARTER_TEST_GUID)};
export const port = Number(process.env.PORT ?? 3000);
`;

const ADAPTER = `// Your shop, as the service sees it: what the kit calls for each callback. Replace the in-memory
// maps with your own data; keep the answers' shapes (the checker and test/adapter.test.ts check them).
import { CallbackError, type CartProduct, type MerchantAdapter, type ReceivedOrder } from 'crossborder-merchant-kit';

const carts = new Map<string, CartProduct[]>([
  [${q(STARTER_CART_TOKEN)}, [{ ProductCode: 'TSHIRT-BLUE-M', Name: 'T-shirt, blue, M', OrderedQuantity: 2, SalePrice: 19.9, OriginalSalePrice: 19.9 }]],
]);
type Charge = { PaymentAmount: string; PaymentCurrencyCode: string };
const orders = new Map<string, { id: string; status: string }>();

// Your payment provider's charge goes here (use the card data, store it nowhere); this "charges" the lines' total.
function charge(order: ReceivedOrder): Charge {
  const total = (order.Products ?? []).reduce((sum, line) => sum + (line.Price ?? 0) * (line.Quantity ?? 0), 0);
  return { PaymentAmount: total.toFixed(2), PaymentCurrencyCode: order.CurrencyCode ?? 'EUR' };
}

// The kit answers a redelivery of the same OrderId with the stored reply: each method runs once per order.
export const adapter = {
  async getCheckoutCartInfo({ merchantCartToken }) {
    const lines = carts.get(merchantCartToken);
    if (!lines) throw new CallbackError('Unknown cart', { status: 404, errorCode: 'CART_NOT_FOUND' });
    return { productsList: lines, currencyCode: 'EUR' };
  },
  async sendOrderToMerchant(order) {
    const placed = orders.get(order.OrderId) ?? { id: \`A-\${orders.size + 1}\`, status: 'N/A' };
    orders.set(order.OrderId, placed);
    // an order with PaymentDetails asks you to charge it: report the charge
    return { InternalOrderId: placed.id, StatusCode: placed.status, ...(order.PaymentDetails ? charge(order) : {}) };
  },
  async performOrderPayment(order) {
    return { ...charge(order), ...(orders.has(order.OrderId) ? { InternalOrderId: orders.get(order.OrderId)!.id } : {}) };
  },
  async updateOrderStatus(order) {
    const placed = orders.get(order.OrderId);
    if (!placed) throw new CallbackError('Unknown order', { status: 404, errorCode: 'ORDER_NOT_FOUND' });
    if (order.StatusCode === 'canceled') placed.status = 'canceled';
    return { InternalOrderId: placed.id, StatusCode: placed.status };
  },
} satisfies MerchantAdapter;
`;

const SERVE_HEAD = `import { adapter } from './adapter.js';
import { merchantGuid } from './config.js';
import { store } from './store.js';
`;

/** src/app.ts per binding: startApp(port) listens and says where. */
function app(c: StarterChoice): string {
  const running = `
export interface RunningApp { url: string; close(): Promise<void> }
`;
  if (c.binding === 'express') {
    return `// The callbacks on Express, under /crossborder.
import express from ${q('express')};
import type { AddressInfo } from 'node:net';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
${SERVE_HEAD}${running}
export function createApp(): express.Express {
  const app = express();
  app.use('/crossborder', createCallbackRouter({ merchantGuid, adapter, store }));
  return app;
}

export function startApp(port: number): Promise<RunningApp> {
  return new Promise((resolve) => {
    const server = createApp().listen(port, () => resolve({
      url: \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`,
      close: () => new Promise((done) => server.close(() => done())),
    }));
  });
}
`;
  }
  if (c.binding === 'fastify') {
    return `// The callbacks as a Fastify plugin, under /crossborder.
import Fastify from ${q('fastify')};
import type { AddressInfo } from 'node:net';
import { fastifyCallbacks } from 'crossborder-merchant-kit/fastify';
${SERVE_HEAD}${running}
export async function startApp(port: number): Promise<RunningApp> {
  const app = Fastify();
  await app.register(fastifyCallbacks, { prefix: '/crossborder', merchantGuid, adapter, store });
  await app.listen({ port, host: '0.0.0.0' });
  return { url: \`http://127.0.0.1:\${(app.server.address() as AddressInfo).port}\`, close: () => app.close() };
}
`;
  }
  if (c.binding === 'fetch') {
    return `// The callbacks as a fetch handler (Request → Response: Hono, Next.js, Bun, Deno, Workers), served
// here by node:http: each request becomes a Request, the Response is written back.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetchHandler } from 'crossborder-merchant-kit/fetch';
${SERVE_HEAD}${running}
export const handle = createFetchHandler({ merchantGuid, adapter, store, basePath: '/crossborder' });

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const method = req.method ?? 'GET';
  const request = new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
  });
  const response = await handle(request, { remoteAddress: req.socket.remoteAddress });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export function startApp(port: number): Promise<RunningApp> {
  const server = createServer((req, res) => {
    serve(req, res).catch(() => { if (!res.headersSent) res.writeHead(500); res.end(); });
  });
  return new Promise((resolve) => server.listen(port, () => resolve({
    url: \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`,
    close: () => new Promise((done) => server.close(() => done())),
  })));
}
`;
  }
  return `// Locally, a small API Gateway (HTTP API, payload 2.0) in front of the Lambda handler of src/lambda.ts:
// each request becomes the event API Gateway would send. On AWS the handler is lambda.handler.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler } from './lambda.js';

export interface RunningApp { url: string; close(): Promise<void> }

export function startApp(port: number): Promise<RunningApp> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const headers: Record<string, string> = {};
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i].toLowerCase();
        headers[name] = headers[name] === undefined ? req.rawHeaders[i + 1] : \`\${headers[name]},\${req.rawHeaders[i + 1]}\`;
      }
      const body = Buffer.concat(chunks);
      handler({
        version: '2.0', rawPath: url.pathname, rawQueryString: url.search.slice(1), headers,
        requestContext: { http: { method: req.method ?? 'GET', path: url.pathname, sourceIp: req.socket.remoteAddress ?? '' } },
        body: body.length > 0 ? body.toString('base64') : undefined, isBase64Encoded: body.length > 0,
      }).then((result) => {
        res.writeHead(result.statusCode, result.headers);
        res.end(result.body);
      }, () => { res.writeHead(500); res.end(); });
    });
  });
  return new Promise((resolve) => server.listen(port, () => resolve({
    url: \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`,
    close: () => new Promise((done) => server.close(() => done())),
  })));
}
`;
}

const LAMBDA = `// AWS Lambda (behind API Gateway or a function URL): the function's handler is lambda.handler.
// Built once per execution environment, reused by every invocation.
import { createLambdaHandler } from 'crossborder-merchant-kit/lambda';
${SERVE_HEAD}
export const handler = createLambdaHandler({ merchantGuid, adapter, store, basePath: '/crossborder' });
`;

const SERVER = `// npm start: the app on PORT (default 3000), and the command that checks it.
import { startApp } from './app.js';
import { merchantGuid, port } from './config.js';

const app = await startApp(port);
console.log(\`callbacks at \${app.url}/crossborder; check them with:\`);
console.log(\`npx crossborder-merchant-kit check \${app.url}/crossborder --guid \${merchantGuid} --cart-token ${STARTER_CART_TOKEN}\`);
`;

function adapterTest(c: StarterChoice): string {
  return `// The adapter through the kit (no HTTP), with the package's payload builders (node:test).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createCallbackKit } from 'crossborder-merchant-kit';
import { buildOrder, buildPaymentDetails, buildUpdateOrderStatus, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';
import { adapter } from '../src/adapter.js';
import { closeStore, store } from '../src/store.js';

${c.store === 'postgres' ? 'await store.migrate(); // the test database: migrated here (in production: npm run migrate)\n' : ''}after(closeStore);
const kit = createCallbackKit({ merchantGuid: TEST_MERCHANT_GUID, adapter, store });
async function post(callback: 'sendOrderToMerchant' | 'updateOrderStatus', body: unknown) {
  const reply = await kit.handle(callback, { method: 'POST', path: '/', query: {}, headers: { 'content-type': 'application/json' }, body });
  return { status: reply.status, body: reply.body as Record<string, unknown> };
}

test('an order gets an InternalOrderId, and the same one when it is delivered again', async () => {
  const order = buildOrder();
  const first = await post('sendOrderToMerchant', order);
  assert.equal(first.status, 200);
  assert.match(String(first.body.InternalOrderId), /^A-\\d+$/);
  const again = await post('sendOrderToMerchant', order);
  assert.equal(again.body.InternalOrderId, first.body.InternalOrderId);
});

test('an order with PaymentDetails reports the charge', async () => {
  const reply = await post('sendOrderToMerchant', buildOrder({ PaymentDetails: buildPaymentDetails() }));
  assert.equal(reply.status, 200);
  assert.match(String(reply.body.PaymentAmount), /^\\d+\\.\\d{2}$/);
  assert.match(String(reply.body.PaymentCurrencyCode), /^[A-Z]{3}$/);
});

test('a cancellation of a known order is accepted; of an unknown one, declined', async () => {
  const order = buildOrder();
  await post('sendOrderToMerchant', order);
  const cancelled = await post('updateOrderStatus', buildUpdateOrderStatus({ OrderId: order.OrderId, StatusCode: 'canceled' }));
  assert.equal(cancelled.status, 200);
  assert.equal(cancelled.body.StatusCode, 'canceled');
  const unknown = await post('updateOrderStatus', buildUpdateOrderStatus({ StatusCode: 'canceled' }));
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.ErrorCode, 'ORDER_NOT_FOUND');
});
`;
}

function conformanceTest(c: StarterChoice): string {
  return `// The app as the service sees it: started on a free port, every conformance check run against it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTable, runConformance } from 'crossborder-merchant-kit/conformance';
import { startApp } from '../src/app.js';
import { merchantGuid } from '../src/config.js';
import { closeStore${c.store === 'memory' ? '' : ', store'} } from '../src/store.js';

test('the app passes the conformance checker', async () => {
${storeTestSetup(c.store)}  const app = await startApp(0);
  try {
    const report = await runConformance({ merchantUrl: \`\${app.url}/crossborder\`, merchantGuid, cartToken: ${q(STARTER_CART_TOKEN)} });
    assert.equal(report.preflight, undefined, report.preflight);
    assert.equal(report.failed, 0, formatTable(report));
  } finally {
    await app.close();
    await closeStore();
  }
});
`;
}

function readme(c: StarterChoice): string {
  return `# ${c.name}

Callbacks of the cross-border commerce service, with crossborder-merchant-kit (${c.binding} binding, ${STARTER_STORE_CLASS[c.store]}).

\`\`\`bash
npm install
${storeSteps(c.store).map((line) => `${line}\n`).join('')}npm start         # listens on PORT (default 3000) and prints the check command
npm test          # type-check, the adapter's unit tests, the conformance checker against the app
\`\`\`

- \`src/adapter.ts\`: your shop's answers (replace the in-memory data).
- \`src/app.ts\`: the binding, callbacks under \`/crossborder\`${c.binding === 'lambda' ? ' (locally: a small API Gateway in front of \`src/lambda.ts\`)' : ''}.
- \`src/store.ts\`: the store; \`src/config.ts\`: MERCHANT_GUID and PORT (\`.env.example\`).
${storeReadme(c.store)}
Register the URLs (\`https://your-shop.example/crossborder/SendOrderToMerchant\`, …) with the service and
set MERCHANT_GUID to yours. The kit's documentation: https://github.com/crossborder-merchant-kit/crossborder-merchant-kit#readme
`;
}

/** Every file of the starter, by path relative to its directory. */
export function starterFiles(c: StarterChoice): Record<string, string> {
  return {
    'package.json': packageJson(c),
    'tsconfig.json': TSCONFIG,
    '.env.example': envExample(c),
    '.gitignore': 'node_modules\n.env\n',
    'README.md': readme(c),
    'src/config.ts': CONFIG,
    'src/adapter.ts': ADAPTER,
    'src/store.ts': storeFile(c.store, c.binding === 'lambda'),
    ...storeExtraFiles(c.store),
    'src/app.ts': app(c),
    ...(c.binding === 'lambda' ? { 'src/lambda.ts': LAMBDA } : {}),
    'src/server.ts': SERVER,
    'test/adapter.test.ts': adapterTest(c),
    'test/conformance.test.ts': conformanceTest(c),
  };
}
