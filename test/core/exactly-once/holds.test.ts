/**
 * The hold policy (lib/core/exactly-once/holds.ts) as the operator and the service see it:
 * a hold store that fails answers a retryable 503 and never reaches the adapter; what the log says
 * about holds placed and documents counted. Written against mutation testing (docs/safety-tests.md).
 */
import { CallbackError } from 'crossborder-merchant-kit';
import { MemoryStore, type AcquireOptions, type Store, type StoreLock } from 'crossborder-merchant-kit/store';
import { buildCartInfoPayload, buildCartInfoQuery } from 'crossborder-merchant-kit/testing';
import { documentsDelivery, MERCHANT_GUID, order, statusUpdate } from '../../helpers/orders.js';
import { kitWith } from '../../idempotency/harness.js';

const required = (code: string) => ({ DocumentTypeCode: code, DocumentTypeName: 'doc', DocumentExtension: 'PDF', URL: '' });
const delivered = (code: string) => ({
  DocumentTypeCode: code, DocumentTypeName: 'doc', DocumentExtension: 'PDF', URL: '', DocumentData: Buffer.from('%PDF-1.4').toString('base64'),
});
const heldOrder = () => order({ AdditionalRequiredDocuments: [required('11'), required('4')] });
const UNAVAILABLE = { Success: false, Message: 'Service unavailable, retry later', ErrorCode: 'STORE_UNAVAILABLE', Description: 'The order store is unavailable; retry later' };

function failing(method: 'placeFulfilmentHold' | 'getFulfilmentHold' | 'recordDocuments'): Store {
  const store = new MemoryStore();
  (store as unknown as Record<string, unknown>)[method] = async () => { throw new Error('hold table gone at 10.0.0.7'); };
  return store;
}

/**
 * A store that reads what the kit asks for together with the OrderId lock (as PostgresStore does: one
 * round trip), and whose own `getFulfilmentHold` fails once `failReads` is set: the kit must then use
 * the hold read with the lock, never ask again.
 */
class PrefetchingStore extends MemoryStore {
  failReads = false;

  override async acquire(orderId: string, options: AcquireOptions): Promise<StoreLock | null> {
    const lock = await super.acquire(orderId, options);
    const p = options.prefetch;
    if (!lock || !p) return lock;
    const prefetched = {
      record: await this.getRecord(p.key),
      payment: p.payment ? await this.getPayment(orderId) : null,
      latest: await this.getLatestRecord(orderId, p.latestOf),
      hold: await super.getFulfilmentHold(orderId),
    };
    return { ...lock, prefetched };
  }

  override async getFulfilmentHold(orderId: string) {
    if (this.failReads) throw new Error('hold table gone');
    return super.getFulfilmentHold(orderId);
  }
}

const awaitingCodes = (call: { context: { fulfilmentHold?: { orderId: string; awaiting: { DocumentTypeCode: string }[] } } }) =>
  call.context.fulfilmentHold && { orderId: call.context.fulfilmentHold.orderId, codes: call.context.fulfilmentHold.awaiting.map((d) => d.DocumentTypeCode) };

describe('the hold the adapter sees (context.fulfilmentHold)', () => {
  test('the order that places it, each later callback of the order, none once released', async () => {
    const t = kitWith(new MemoryStore());
    await t.deliver('sendOrderToMerchant', heldOrder());
    expect(awaitingCodes(t.calls('sendOrderToMerchant')[0])).toEqual({ orderId: 'GE1001CH', codes: ['11', '4'] });
    await t.deliver('updateOrderStatus', statusUpdate('processing'));
    expect(awaitingCodes(t.calls('updateOrderStatus')[0])).toEqual({ orderId: 'GE1001CH', codes: ['11', '4'] });
    // The documents webhook: the hold as it will be once these documents count.
    await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('11')] }));
    expect(awaitingCodes(t.calls('receiveAdditionalRequiredDocuments')[0])).toEqual({ orderId: 'GE1001CH', codes: ['4'] });
    await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('4')] }));
    expect(t.calls('receiveAdditionalRequiredDocuments')[1].context.fulfilmentHold).toBeUndefined();
    await t.deliver('updateOrderStatus', statusUpdate('shipped'));
    expect(t.calls('updateOrderStatus')[1].context.fulfilmentHold).toBeUndefined();
  });

  test('an order announcing no documents shows the hold its OrderId already has', async () => {
    const store = new MemoryStore();
    await store.placeFulfilmentHold('GE1001CH', [{ DocumentTypeCode: '11' }]);
    const t = kitWith(store);
    await t.deliver('sendOrderToMerchant', order({ AdditionalRequiredDocuments: [] }));
    expect(awaitingCodes(t.calls('sendOrderToMerchant')[0])).toEqual({ orderId: 'GE1001CH', codes: ['11'] });
  });

  test('an empty AdditionalRequiredDocuments list places nothing (the order is accepted while placing would fail)', async () => {
    const t = kitWith(failing('placeFulfilmentHold'));
    const res = await t.deliver('sendOrderToMerchant', order({ AdditionalRequiredDocuments: [] }));
    expect(res.status).toBe(200);
    expect(t.calls('sendOrderToMerchant')).toHaveLength(1);
  });

  test('documents the adapter declines are not counted: the hold still awaits them', async () => {
    const t = kitWith(new MemoryStore(), { receiveAdditionalRequiredDocuments: () => { throw new CallbackError('storage full'); } });
    await t.deliver('sendOrderToMerchant', heldOrder());
    expect((await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('11')] }))).status).toBe(400);
    await t.deliver('updateOrderStatus', statusUpdate('processing'));
    expect(awaitingCodes(t.calls('updateOrderStatus')[0])).toEqual({ orderId: 'GE1001CH', codes: ['11', '4'] });
    expect(t.log.lines.some((l) => String(l.msg).startsWith('additional documents received'))).toBe(false);
  });
});

describe('a store that reads the hold with the OrderId lock', () => {
  test('the hold read with the lock is used: the store is not asked for it again', async () => {
    const store = new PrefetchingStore();
    const t = kitWith(store);
    await t.deliver('sendOrderToMerchant', heldOrder());
    store.failReads = true;
    const res = await t.deliver('updateOrderStatus', statusUpdate('processing'));
    expect(res.status).toBe(200);
    expect(awaitingCodes(t.calls('updateOrderStatus')[0])).toEqual({ orderId: 'GE1001CH', codes: ['11', '4'] });
    expect((await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('11')] }))).status).toBe(200);
    expect(awaitingCodes(t.calls('receiveAdditionalRequiredDocuments')[0])).toEqual({ orderId: 'GE1001CH', codes: ['4'] });
  });

  test('the order that places a hold sees the hold placed, not the none read before it with the lock', async () => {
    const t = kitWith(new PrefetchingStore());
    await t.deliver('sendOrderToMerchant', heldOrder());
    expect(awaitingCodes(t.calls('sendOrderToMerchant')[0])).toEqual({ orderId: 'GE1001CH', codes: ['11', '4'] });
  });
});

describe('a hold store that fails', () => {
  test('placing the hold: 503 with Retry-After, adapter not called, the error logged (not replied)', async () => {
    const t = kitWith(failing('placeFulfilmentHold'));
    const res = await t.deliver('sendOrderToMerchant', heldOrder());
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual(UNAVAILABLE);
    expect(t.calls('sendOrderToMerchant')).toHaveLength(0);
    const line = t.log.lines.find((l) => l.msg === 'fulfilment-hold store failed');
    expect(line?.level).toBe('error');
    expect(t.log.lines.find((l) => l.msg === 'callback refused')?.obj).toMatchObject({ reason: 'fulfilment-hold store failed' });
    expect(JSON.stringify(res.body)).not.toContain('10.0.0.7');
  });

  test('counting accepted documents: 503 with Retry-After (the service redelivers them)', async () => {
    const t = kitWith(failing('recordDocuments'));
    const res = await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('11')] }));
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual(UNAVAILABLE);
    // the operator is told which store failed
    expect(t.log.lines.find((l) => l.msg === 'fulfilment-hold store failed')?.level).toBe('error');
  });

  test('reading the hold for a status update: 503 with Retry-After, adapter not called, the log names the hold store', async () => {
    const t = kitWith(failing('getFulfilmentHold'));
    const res = await t.deliver('updateOrderStatus', statusUpdate('processing'));
    expect(res.status).toBe(503);
    expect(res.body).toEqual(UNAVAILABLE);
    expect(t.calls('updateOrderStatus')).toHaveLength(0);
    expect(t.log.lines.find((l) => l.msg === 'fulfilment-hold store failed')?.level).toBe('error');
  });
});

describe('what the log says', () => {
  test('a hold placed, documents counted while others are awaited, then the hold released', async () => {
    const t = kitWith(new MemoryStore());
    await t.deliver('sendOrderToMerchant', heldOrder());
    expect(t.log.lines.find((l) => l.msg === 'order placed on fulfilment hold')).toMatchObject({ level: 'info', obj: { awaiting: 2 } });
    await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('11')] }));
    expect(t.log.lines.find((l) => l.msg === 'additional documents received; order still on hold'))
      .toMatchObject({ level: 'info', obj: { documents: 1, awaiting: 1 } });
    await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('4')] }));
    expect(t.log.lines.find((l) => l.msg === 'additional documents received; order not on hold'))
      .toMatchObject({ level: 'info', obj: { documents: 1, awaiting: 0 } });
  });

  test('documents for an order that is not on hold: the adapter sees no hold, the log says so', async () => {
    const t = kitWith(new MemoryStore());
    await t.deliver('sendOrderToMerchant', order());
    expect(t.log.lines.some((l) => l.msg === 'order placed on fulfilment hold')).toBe(false);
    await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('11')] }));
    expect(t.calls('receiveAdditionalRequiredDocuments')[0].context.fulfilmentHold).toBeUndefined();
    expect(t.log.lines.find((l) => l.msg === 'additional documents received; order not on hold')).toMatchObject({ obj: { documents: 1, awaiting: 0 } });
  });
});

describe('where holds do not apply', () => {
  test('the error of a failing hold store is logged with its cause', async () => {
    const t = kitWith(failing('placeFulfilmentHold'));
    await t.deliver('sendOrderToMerchant', heldOrder());
    expect(t.log.lines.find((l) => l.msg === 'fulfilment-hold store failed')?.obj).toHaveProperty('err');
  });

  test('GetCheckoutCartInfo never touches the hold store (it keeps working while that store fails)', async () => {
    const t = kitWith(failing('getFulfilmentHold'));
    const res = await t.kit.handle('getCheckoutCartInfo', {
      method: 'POST', path: '/', query: buildCartInfoQuery(), headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(buildCartInfoPayload({ MerchantGUID: MERCHANT_GUID }))),
    });
    expect(res.status).toBe(200);
    expect(t.log.lines.some((l) => l.msg === 'fulfilment-hold store failed')).toBe(false);
  });

  test('only SendOrderToMerchant places a hold: documents announced in a status update do not', async () => {
    const store = new MemoryStore();
    const t = kitWith(store);
    await t.deliver('updateOrderStatus', statusUpdate('processing', { AdditionalRequiredDocuments: [required('11')] }));
    expect(await store.getFulfilmentHold('GE1001CH')).toBeNull();
    expect(t.log.lines.some((l) => l.msg === 'order placed on fulfilment hold')).toBe(false);
  });

  test('documents all received before the order: no hold, no hold line, the order accepted', async () => {
    const store = new MemoryStore();
    const t = kitWith(store);
    await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('11')] }));
    const res = await t.deliver('sendOrderToMerchant', order({ AdditionalRequiredDocuments: [required('11')] }));
    expect(res.status).toBe(200);
    expect(t.calls('sendOrderToMerchant')[0].context.fulfilmentHold).toBeUndefined();
    expect(await store.getFulfilmentHold('GE1001CH')).toBeNull();
    expect(t.log.lines.some((l) => l.msg === 'order placed on fulfilment hold')).toBe(false);
  });
});
