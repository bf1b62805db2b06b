/**
 * Fulfilment holds through the kit, run against every store (memory.test.ts, postgres.pg.test.ts).
 */
import { CallbackError } from 'crossborder-merchant-kit';
import { documentsDelivery, order, statusUpdate } from '../helpers/orders.js';
import type { StoreFactory, StoreHarness } from '../store/harness.js';
import { kitWith } from './harness.js';

const required = (code: string, extra: Record<string, unknown> = {}) => ({
  DocumentTypeCode: code, DocumentTypeName: code === '11' ? 'EAD' : 'Label', DocumentExtension: 'PDF', URL: '', ...extra,
});
const pdf = (text: string) => Buffer.from(`%PDF-1.4 ${text}`);
const delivered = (code: string, text: string, extra: Record<string, unknown> = {}) => ({
  DocumentTypeCode: code, DocumentTypeName: 'doc', DocumentExtension: 'PDF', URL: `https://docs.example.com/${text}.pdf`,
  DocumentData: pdf(text).toString('base64'), ...extra,
});

const heldOrder = () => order({
  AdditionalRequiredDocuments: [required('11', { TrackingNumber: 'TRK123' }), required('4', { ParcelCode: 'P1' })],
});

/** `coreOnly`: the store has the required core only; tests of what a capability adds are left out. */
export function holdsBehaviour(factory: StoreFactory, { coreOnly = false } = {}): void {
  let h: StoreHarness;
  beforeEach(async () => { h = await factory(); });

  test('SendOrderToMerchant with AdditionalRequiredDocuments places the order on hold; the adapter sees it', async () => {
    const t = kitWith(h.store);
    expect((await t.deliver('sendOrderToMerchant', heldOrder())).status).toBe(200);
    const expected = {
      orderId: 'GE1001CH',
      awaiting: [{ DocumentTypeCode: '11', TrackingNumber: 'TRK123' }, { DocumentTypeCode: '4', ParcelCode: 'P1' }],
      since: expect.any(Date),
    };
    expect(t.calls('sendOrderToMerchant')[0].context.fulfilmentHold).toEqual(expected);
    expect(await h.store.getFulfilmentHold('GE1001CH')).toEqual(expected);
    await t.deliver('updateOrderStatus', statusUpdate('processing'));
    expect(t.calls('updateOrderStatus')[0].context.fulfilmentHold).toEqual(expected);
  });

  if (!coreOnly) test('the merchant ids a SendOrderToMerchant reply returns (InternalOrderId, OrderId) find the order; a decline records none', async () => {
    const t = kitWith(h.store, { sendOrderToMerchant: (o) => {
      if (o.OrderId === 'GE1002CH') throw new CallbackError('out of stock');
      return { InternalOrderId: 'A-1', OrderId: '1001' };
    } });
    await t.deliver('sendOrderToMerchant', heldOrder());
    expect(await h.store.findOrderId('A-1')).toBe('GE1001CH');
    expect(await h.store.findOrderId('1001')).toBe('GE1001CH');
    await t.deliver('updateOrderStatus', statusUpdate('processing'));
    await t.deliver('sendOrderToMerchant', order({ OrderId: 'GE1002CH' }));
    expect(await h.store.findOrderId('GE1002CH')).toBeNull();
    expect(await h.store.findOrderId('GE1001CH')).toBeNull();
  });

  test('an order without AdditionalRequiredDocuments is not held', async () => {
    const t = kitWith(h.store);
    await t.deliver('sendOrderToMerchant', order({ AdditionalRequiredDocuments: [] }));
    expect(t.calls('sendOrderToMerchant')[0].context.fulfilmentHold).toBeUndefined();
    expect(await h.store.getFulfilmentHold('GE1001CH')).toBeNull();
  });

  test('documents are decoded for the adapter; a partial delivery keeps the rest awaited; the last one releases', async () => {
    const t = kitWith(h.store);
    await t.deliver('sendOrderToMerchant', heldOrder());
    const first = await t.deliver('receiveAdditionalRequiredDocuments',
      documentsDelivery({ Documents: [delivered('11', 'ead', { TrackingNumber: 'TRK123' })] }));
    expect(first.status).toBe(200);
    const call = t.calls('receiveAdditionalRequiredDocuments')[0];
    expect(Buffer.isBuffer(call.input.Documents[0].Content)).toBe(true);
    expect(call.input.Documents[0].Content.equals(pdf('ead'))).toBe(true);
    expect(call.context.fulfilmentHold.awaiting).toEqual([{ DocumentTypeCode: '4', ParcelCode: 'P1' }]);
    expect((await h.store.getFulfilmentHold('GE1001CH'))!.awaiting).toEqual([{ DocumentTypeCode: '4', ParcelCode: 'P1' }]);

    await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('4', 'label', { ParcelCode: 'P1' })] }));
    expect(t.calls('receiveAdditionalRequiredDocuments')[1].context.fulfilmentHold).toBeUndefined();
    expect(await h.store.getFulfilmentHold('GE1001CH')).toBeNull();
  });

  test('documents that arrive before the order are counted when it arrives', async () => {
    const t = kitWith(h.store);
    await t.deliver('receiveAdditionalRequiredDocuments', documentsDelivery({ Documents: [delivered('11', 'ead', { TrackingNumber: 'TRK123' })] }));
    await t.deliver('sendOrderToMerchant', heldOrder());
    expect(t.calls('sendOrderToMerchant')[0].context.fulfilmentHold.awaiting).toEqual([{ DocumentTypeCode: '4', ParcelCode: 'P1' }]);
    const stored = await h.scan();
    expect(stored).toContain('TRK123');
    expect(stored).not.toContain(pdf('ead').toString('base64'));
  });

  test('documents the adapter declines are not counted; a redelivery after acceptance is replayed', async () => {
    let accept = false;
    const t = kitWith(h.store, {
      receiveAdditionalRequiredDocuments: () => { if (!accept) throw new CallbackError('storage full'); },
    });
    await t.deliver('sendOrderToMerchant', order({ AdditionalRequiredDocuments: [required('11')] }));
    const docs = documentsDelivery({ Documents: [delivered('11', 'ead')] });
    expect((await t.deliver('receiveAdditionalRequiredDocuments', docs)).status).toBe(400);
    expect(await h.store.getFulfilmentHold('GE1001CH')).not.toBeNull();
    accept = true;
    expect((await t.deliver('receiveAdditionalRequiredDocuments', docs)).status).toBe(200);
    expect(await h.store.getFulfilmentHold('GE1001CH')).toBeNull();
    expect((await t.deliver('receiveAdditionalRequiredDocuments', docs)).headers['idempotency-replayed']).toBe('true');
    expect(t.calls('receiveAdditionalRequiredDocuments')).toHaveLength(2);
  });
}
