// Bun: `bun bun.mjs`.
import { createFetchHandler } from 'crossborder-merchant-kit/fetch';
import { adapter, MERCHANT_GUID } from './shop.mjs';

const handle = createFetchHandler({ merchantGuid: MERCHANT_GUID, adapter, basePath: '/crossborder' });

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  fetch: (request, srv) => handle(request, { remoteAddress: srv.requestIP(request)?.address }),
});
console.log(`listening http://${server.hostname}:${server.port}`);
