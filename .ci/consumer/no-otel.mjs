// @opentelemetry/api NOT installed (an optional peer): the kit loads, serves a delivery, checks health,
// and publishes its diagnostics_channel events (they need no package).
import diagnostics from 'node:diagnostics_channel';
import { checkHealth, createCallbackKit } from 'crossborder-merchant-kit';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { buildUpdateOrderStatus, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';

let resolvedApi = true;
try { await import('@opentelemetry/api'); } catch { resolvedApi = false; }
if (resolvedApi) throw new Error('@opentelemetry/api is installed here; this check must run without it');

const seen = [];
diagnostics.tracingChannel('crossborder-merchant-kit:callback').subscribe({ start() {}, end() {}, asyncStart() {}, error() {}, asyncEnd: (m) => seen.push(m.outcome) });
const store = new MemoryStore();
const kit = createCallbackKit({ merchantGuid: TEST_MERCHANT_GUID, store, adapter: { sendOrderToMerchant: () => ({}), updateOrderStatus: () => ({ InternalOrderId: 'A-1' }) } });
const reply = await kit.handle('updateOrderStatus', { method: 'POST', path: '/UpdateOrderStatus', headers: { 'content-type': 'application/json' }, query: {}, body: buildUpdateOrderStatus() });
if (reply.status !== 200) throw new Error(`a delivery without @opentelemetry/api answered ${reply.status} ${JSON.stringify(reply.body)}`);
if (seen.join() !== 'handled') throw new Error(`the callback channel reported ${JSON.stringify(seen)}`);
const health = await checkHealth({ store });
if (!health.ok) throw new Error(`checkHealth: ${JSON.stringify(health)}`);
console.log('ok: without @opentelemetry/api (a delivery served, the channel published, checkHealth ok)');
