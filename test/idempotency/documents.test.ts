import request from 'supertest';
import { MemoryStore } from 'crossborder-merchant-kit/store';
import { checkDocuments, decodeBase64 } from '../../lib/core/stages/documents.js';
import { BINDINGS } from '../helpers/bindings.js';
import { documentsDelivery, MERCHANT_GUID, order } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

const PATH = '/cb/SendAdditionalRequiredDocumentsToMerchant';
const doc = (extra: Record<string, unknown> = {}) => ({
  DocumentTypeCode: '11', DocumentTypeName: 'EAD', DocumentExtension: 'PDF', URL: 'https://docs.example.com/ead.pdf',
  DocumentData: Buffer.from('%PDF-1.4 ead').toString('base64'), ...extra,
});

describe('decodeBase64', () => {
  test.each([
    ['padded', Buffer.from('hello!!').toString('base64'), 'hello!!'],
    ['unpadded', 'aGVsbG8', 'hello'],
    ['with line breaks', 'aGVs\r\nbG8h', 'hello!'],
    ['URL-safe alphabet', Buffer.from([0xfb, 0xff]).toString('base64url'), '\u00fb\u00ff'],
  ])('accepts %s', (_n, input, text) => {
    expect(decodeBase64(input)!.toString('latin1')).toBe(text);
  });

  test.each([
    ['characters outside the alphabet', 'aGVs*G8='],
    ['misplaced padding', 'aG=Vs'],
    ['an impossible length', 'aGVsb'],
    ['padding that does not complete a quantum', 'aGVsbG8=='],
    ['an empty string', ''],
  ])('rejects %s', (_n, input) => {
    expect(decodeBase64(input)).toBeNull();
  });
});

describe('checkDocuments', () => {
  test('reports every problem by JSON pointer, never by value', () => {
    const { issues } = checkDocuments([
      { DocumentExtension: 'DOCX', DocumentData: 'secret-ish value!' },
      { DocumentTypeCode: '4', DocumentExtension: 'PDF' },
      { DocumentTypeCode: '4', DocumentExtension: 'PDF', URL: 'ftp://x/y' },
      'nope',
    ]);
    expect(issues).toEqual([
      { pointer: '/Documents/0/DocumentTypeCode', rule: 'is required' },
      { pointer: '/Documents/0/DocumentExtension', rule: 'must be PDF, ZPL or EPL' },
      { pointer: '/Documents/0/DocumentData', rule: 'must be well-formed base64' },
      { pointer: '/Documents/1', rule: 'needs DocumentData (base64) or a URL' },
      { pointer: '/Documents/2/URL', rule: 'must be an http(s) URL' },
      { pointer: '/Documents/3', rule: 'must be an object' },
    ]);
    expect(checkDocuments([]).issues).toEqual([{ pointer: '/Documents', rule: 'must be a non-empty array of documents' }]);
  });

  test('decodes DocumentData and keeps the fields as sent', () => {
    const { issues, decoded } = checkDocuments([{ DocumentTypeCode: 'EAD', DocumentExtension: '.pdf', DocumentData: 'JVBERi0=', ParcelCode: 'P1' }]);
    expect(issues).toEqual([]);
    expect(decoded[0]).toMatchObject({ DocumentTypeCode: 'EAD', ParcelCode: 'P1', DocumentData: 'JVBERi0=' });
    expect(decoded[0].Content!.toString()).toBe('%PDF-');
  });
});

describe.each(BINDINGS)('%s: documents webhook checks', (_name, mount) => {
  const app = (store = new MemoryStore()) => {
    const adapter = recordingAdapter();
    return { adapter, store, server: mount({ merchantGuid: MERCHANT_GUID, adapter, store } as never) };
  };

  test('a malformed DocumentData is refused with its location; the adapter is not called and the hold stays', async () => {
    const { adapter, store, server } = app();
    await request(server).post('/cb/SendOrderToMerchant').send(order({ AdditionalRequiredDocuments: [doc({ DocumentData: undefined })] }));
    const res = await request(server).post(PATH).send(documentsDelivery({ Documents: [doc(), doc({ DocumentData: 'not base64!' })] }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      Success: false, Message: 'Invalid request', ErrorCode: 'INVALID_REQUEST', Description: '/Documents/1/DocumentData: must be well-formed base64',
    });
    expect(adapter.calls.filter((c) => c.method === 'receiveAdditionalRequiredDocuments')).toHaveLength(0);
    expect(await store.getFulfilmentHold('GE1001CH')).not.toBeNull();
  });

  test('a document given by URL only is accepted and has no Content', async () => {
    const { adapter, server } = app();
    const res = await request(server).post(PATH).send(documentsDelivery({ Documents: [doc({ DocumentData: undefined })] }));
    expect(res.status).toBe(200);
    const [call] = adapter.calls.filter((c) => c.method === 'receiveAdditionalRequiredDocuments');
    expect(call.input.Documents[0].URL).toBe('https://docs.example.com/ead.pdf');
    expect(call.input.Documents[0].Content).toBeUndefined();
  });

  test('ZPL and EPL labels are decoded for the adapter', async () => {
    const { adapter, server } = app();
    const zpl = '^XA^FO50,50^FDLabel^FS^XZ';
    const res = await request(server).post(PATH).send(documentsDelivery({
      Documents: [doc({ DocumentTypeCode: '4', DocumentExtension: 'ZPL', DocumentData: Buffer.from(zpl).toString('base64') }),
        doc({ DocumentTypeCode: '4', DocumentExtension: 'EPL', DocumentData: Buffer.from('N\nP1\n').toString('base64') })],
    }));
    expect(res.status).toBe(200);
    const docs = adapter.calls[0].input.Documents;
    expect(docs[0].Content.toString()).toBe(zpl);
    expect(docs[1].Content.toString()).toBe('N\nP1\n');
  });
});
