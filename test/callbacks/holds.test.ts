/**
 * The fulfilment-hold step (lib/callbacks/steps/holds.ts) as the operator and the service see it:
 * a hold store that fails answers a retryable 503 and never reaches the adapter; what the log says
 * about holds placed and documents counted. Written against mutation testing (docs/safety-tests.md).
 */
import { MemoryStore, type Store } from 'crossborder-merchant-kit/store';
import { buildCartInfoPayload, buildCartInfoQuery } from 'crossborder-merchant-kit/testing';
import { documentsDelivery, MERCHANT_GUID, order, statusUpdate } from '../helpers/orders.js';
import { kitWith } from '../idempotency/harness.js';

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
