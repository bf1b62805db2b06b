/**
 * The hold guard's own rules (lib/client/hold-guard.ts), with a store that records what it is asked:
 * only real ids are looked up (never '', undefined or a null mapping), a call naming no id is not
 * guarded, and the fail-closed answers name the operation and say nothing was sent.
 */
import { MemoryStore, type Store } from 'crossborder-merchant-kit/store';
import { holdGuard } from '../../lib/client/hold-guard.js';
import { resolveClientOptions } from '../../lib/client/options.js';
import { captureLogger } from '../helpers/recording.js';

const ead = { DocumentTypeCode: '11', TrackingNumber: 'TRK1' };

function spied(store: Store, drop: string[] = []) {
  const asked: Array<[string, unknown]> = [];
  const view: Record<string, unknown> = {};
  for (const name of ['acquire', 'getRecord', 'saveRecord', 'placeFulfilmentHold', 'recordDocuments', 'getFulfilmentHold', 'saveMerchantOrderIds', 'findOrderId']) {
    if (drop.includes(name)) continue;
    view[name] = (...args: unknown[]) => {
      if (name === 'getFulfilmentHold' || name === 'findOrderId') asked.push([name, args[0]]);
      return (store as unknown as Record<string, (...a: unknown[]) => unknown>)[name](...args);
    };
  }
  return { store: view as unknown as Store, asked };
}
const options = (store: Store) => {
  const logger = captureLogger();
  return { o: resolveClientOptions({ baseUrl: 'https://api.example.com', merchantGuid: '6a3c1f52-0d7e-4b9a-8f21-5c4e9d0b7a13', store, logger }), logger };
};

test('only non-empty string ids are looked up, each both ways; a null mapping is not looked up', async () => {
  const { store, asked } = spied(new MemoryStore());
  await holdGuard(options(store).o, 'updateOrderDispatchV2', ['100018322', '', undefined, '100018322'], false);
  expect(asked).toEqual([['findOrderId', '100018322'], ['getFulfilmentHold', '100018322']]);
});

test('a call naming no id is not guarded, even with a store that cannot map merchant ids', async () => {
  const { store, asked } = spied(new MemoryStore(), ['saveMerchantOrderIds', 'findOrderId']);
  await expect(holdGuard(options(store).o, 'updateOrderDispatchV2', [undefined, ''], false)).resolves.toBeUndefined();
  await expect(holdGuard(options(store).o, 'updateOrderDispatchV2', {}, false)).resolves.toBeUndefined();
  expect(asked).toEqual([]);
});

test('a mapped merchant id finds the hold of its service OrderId', async () => {
  const memory = new MemoryStore();
  await memory.placeFulfilmentHold('GE1', [ead]);
  await memory.saveMerchantOrderIds('GE1', ['M-1']);
  const { store } = spied(memory);
  await expect(holdGuard(options(store).o, 'updateOrderDispatch', { orderId: 'M-1' }, false)).rejects.toMatchObject({ code: 'FULFILMENT_HOLD', hold: { orderId: 'GE1' } });
});

test('fail closed: the answers name the operation, say nothing was sent, and force logs the operation', async () => {
  const broken = { ...spied(new MemoryStore()).store, getFulfilmentHold: async () => { throw new Error('down'); } } as Store;
  await expect(holdGuard(options(broken).o, 'updateOrderDispatchV2', ['GE1'], false))
    .rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', operation: 'updateOrderDispatchV2', description: 'the fulfilment-hold guard could not read the store; nothing was sent' });
  const forced = options(broken);
  await holdGuard(forced.o, 'updateOrderDispatchV2', ['GE1'], true);
  expect(forced.logger.lines.find((l) => l.level === 'warn')?.obj).toMatchObject({ operation: 'updateOrderDispatchV2' });
  const { store } = spied(new MemoryStore(), ['saveMerchantOrderIds', 'findOrderId']);
  const noMap = options(store);
  await holdGuard(noMap.o, 'updateOrderDispatch', ['100018322'], true);
  expect(noMap.logger.lines.find((l) => l.level === 'warn')?.obj).toMatchObject({ operation: 'updateOrderDispatch' });
});
