/**
 * With a context manager registered (NodeSDK registers one), the delivery span is the active span
 * while the pipeline runs, so the merchant's logger can stamp each kit log line with its trace.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createCallbackKit } from 'crossborder-merchant-kit';
import { MERCHANT_GUID, statusUpdate } from '../helpers/orders.js';
import { idOf, installOtel } from '../helpers/otel.js';
import { recordingAdapter } from '../helpers/recording.js';

test('the kit logs inside the delivery span: a logger can correlate its lines with the trace', async () => {
  const otel = installOtel();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const stamped: Array<[string | undefined, string | undefined]> = [];
  let delivery: string;
  const at = () => (_obj: object, msg?: string) => { stamped.push([msg, trace.getActiveSpan()?.spanContext().spanId]); };
  try {
    const kit = createCallbackKit({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: { debug: at(), info: at(), warn: at(), error: at() } });
    const reply = await kit.handle('updateOrderStatus', { method: 'POST', path: '/UpdateOrderStatus', headers: { 'content-type': 'application/json' }, query: {}, body: statusUpdate() });
    expect(reply.status).toBe(200);
    delivery = idOf(otel.span('callback UpdateOrderStatus'));
  } finally {
    context.disable();
    await otel.uninstall();
  }
  expect(stamped.find(([msg]) => msg === 'callback handled')?.[1]).toBe(delivery);
});
