// Deno 2: `deno run --allow-net --allow-read --allow-env deno.mjs` in a project with package.json.
import { createFetchHandler } from 'crossborder-merchant-kit/fetch';
import { adapter, MERCHANT_GUID } from './shop.mjs';

const handle = createFetchHandler({ merchantGuid: MERCHANT_GUID, adapter, basePath: '/crossborder' });

Deno.serve({
  hostname: '127.0.0.1',
  port: Number(Deno.env.get('PORT') ?? 3000),
  onListen: ({ hostname, port }) => console.log(`listening http://${hostname}:${port}`),
}, (request, info) => handle(request, { remoteAddress: info.remoteAddr.hostname }));
