/**
 * Compile-time contract of the public API by entry point, checked by `npm run typecheck` (tsc fails
 * when an `@ts-expect-error` line compiles): the per-callback types, the wire error codes, the
 * subpaths, and the names that left the root. Nothing here runs.
 */
import type {
  AdapterMethod, AdapterResult, CallbackInput, CallbackResult, CartInfoRequest, CartInfoResult, DocumentsDelivery, MerchantAdapter,
  MerchantOrder, ReceivedOrder, WireErrorCode,
} from 'crossborder-merchant-kit';
import { WIRE_ERRORS, timingSafeEqualString } from 'crossborder-merchant-kit';
import type * as Root from 'crossborder-merchant-kit';
import { MemoryStore, PostgresStore, applyPlace, emptyHoldState, holdOf, type HoldState, type Store } from 'crossborder-merchant-kit/store';
import { createServiceClient, ServiceError, type ServiceClient } from 'crossborder-merchant-kit/client';
import { exportDeclarationRequired, type ExportDeclarationDecision } from 'crossborder-merchant-kit/customs';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
const same = <A, B>(ok: Equal<A, B>): Equal<A, B> => ok;

export function checks(): void {
  // Per-callback input and result types are the ones MerchantAdapter uses.
  same<CallbackInput<'sendOrderToMerchant'>, ReceivedOrder>(true);
  // the ids the service always sends are strings: order.OrderId goes to a string parameter (issue 41)
  same<CallbackInput<'sendOrderToMerchant'>['OrderId'], string>(true);
  same<CallbackInput<'receiveAdditionalRequiredDocuments'>['OrderId'], string>(true);
  same<MerchantOrder['OrderId'], string | number | undefined>(true);
  same<CallbackInput<'getCheckoutCartInfo'>, CartInfoRequest>(true);
  same<CallbackInput<'receiveAdditionalRequiredDocuments'>, DocumentsDelivery>(true);
  same<CallbackResult<'getCheckoutCartInfo'>, CartInfoResult>(true);
  same<CallbackResult<'sendOrderToMerchant'>, AdapterResult>(true);
  same<CallbackResult<'updateOrderStatus'>, AdapterResult | void>(true);
  same<AdapterMethod<'sendOrderToMerchant'>, MerchantAdapter['sendOrderToMerchant']>(true);
  // @ts-expect-error the result of a payment is not the cart
  same<CallbackResult<'performOrderPayment'>, CartInfoResult>(true);

  // A method written apart, typed by its callback name: a misspelt result field is a compile error.
  const pay: AdapterMethod<'performOrderPayment'> = async (order) => ({ InternalOrderId: String(order.OrderId), PaymentAmount: '1.00' });
  // @ts-expect-error PaymentAmmount is not a ResponseInfo field
  const typo: AdapterMethod<'performOrderPayment'> = async () => ({ PaymentAmmount: '1.00' });
  // @ts-expect-error 'sendOrder' is not a callback name
  type Unknown = CallbackInput<'sendOrder'>;
  const adapter: MerchantAdapter = { sendOrderToMerchant: async () => ({}), updateOrderStatus: () => {}, performOrderPayment: pay };

  // The wire error codes: a closed union, with their statuses.
  const code: WireErrorCode = 'STORE_UNAVAILABLE';
  const status: 503 = WIRE_ERRORS[code].status;
  // @ts-expect-error not a code the kit answers with
  const notACode: WireErrorCode = 'TIMEOUT';
  // @ts-expect-error the table is read-only
  WIRE_ERRORS.IN_FLIGHT.status = 200;

  // The subpaths.
  const store: Store = new MemoryStore();
  const hold: HoldState = applyPlace(emptyHoldState(), [{ DocumentTypeCode: '11' }], new Date());
  holdOf('A', hold);
  const client: ServiceClient = createServiceClient({ baseUrl: 'https://service.example', merchantGuid: '5b0e6c2a-9f14-4d3e-8a7b-1c2d3e4f5a6b', store });
  const decision: ExportDeclarationDecision = exportDeclarationRequired({ dispatchCountryCode: 'DE', destinationCountryCode: 'US', currencyCode: 'EUR', lines: [] });
  const compare: boolean = timingSafeEqualString('a', 'b');
  void [typo, adapter, status, notACode, client, decision, compare, PostgresStore, ServiceError];

  // Moved or internal names are not on the root any more.
  // @ts-expect-error moved to crossborder-merchant-kit/store
  type NoStore = Root.MemoryStore;
  // @ts-expect-error moved to crossborder-merchant-kit/client
  type NoClient = Root.ServiceClient;
  // @ts-expect-error moved to crossborder-merchant-kit/customs
  type NoCustoms = Root.ExportDeclarationDecision;
  // @ts-expect-error renamed timingSafeEqualString
  type NoSafeCompare = typeof Root.safeCompare;
  // @ts-expect-error internal
  type NoHash = typeof Root.payloadHash;
}
