// Next.js App Router: app/crossborder/[...callback]/route.js (the Node.js runtime).
import { createFetchHandler } from 'crossborder-merchant-kit/fetch';
import { adapter, MERCHANT_GUID } from '../../../shop.mjs';

const handle = createFetchHandler({ merchantGuid: MERCHANT_GUID, adapter, basePath: '/crossborder' });

export const GET = (request) => handle(request);
export const POST = GET;
export const runtime = 'nodejs';
