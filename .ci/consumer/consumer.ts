// Type-checked (not run) by tsc under NodeNext and Bundler resolution, without @types/express.
import http from 'node:http';
import {
  CallbackError, WIRE_ERRORS, type AdapterMethod, type CallbackInput, type CallbackResult, type MerchantAdapter, type MerchantOrder,
  type WireErrorCode,
} from 'crossborder-merchant-kit';
import { MemoryStore, type Store } from 'crossborder-merchant-kit/store';
import { createServiceClient, ServiceError, type ServiceClient } from 'crossborder-merchant-kit/client';
import { exportDeclarationRequired, type ExportDeclarationDecision } from 'crossborder-merchant-kit/customs';
import { createCallbackHandler, type CallbackHandlerOptions } from 'crossborder-merchant-kit/node';
import { buildOrder, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';

// A per-callback method type, written apart from the adapter object.
const sendOrderToMerchant: AdapterMethod<'sendOrderToMerchant'> = async (order: CallbackInput<'sendOrderToMerchant'>) => {
  if (!order.OrderId) throw new CallbackError('no order id', { status: 400 });
  const result: CallbackResult<'sendOrderToMerchant'> = { InternalOrderId: `ts-${order.OrderId}` };
  return result;
};
const adapter: MerchantAdapter = {
  sendOrderToMerchant,
  async updateOrderStatus(_order: MerchantOrder) {},
};
const store: Store = new MemoryStore();
const options: CallbackHandlerOptions = { merchantGuid: TEST_MERCHANT_GUID, adapter, store, basePath: '/cb' };
http.createServer(createCallbackHandler(options));

const client: ServiceClient = createServiceClient({ baseUrl: 'https://service.example', merchantGuid: TEST_MERCHANT_GUID, store });
const retryable = (err: unknown): boolean => err instanceof ServiceError && err.retryable;
const decision: ExportDeclarationDecision = exportDeclarationRequired({
  dispatchCountryCode: 'DE', destinationCountryCode: 'US', currencyCode: 'EUR', lines: [{ value: 1500 }],
});
const busy: WireErrorCode = 'IN_FLIGHT';
const status: number = WIRE_ERRORS[busy].status;

const id: string = String(buildOrder().OrderId);
export { id, client, retryable, decision, status };
