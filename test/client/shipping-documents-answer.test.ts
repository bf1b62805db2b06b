/**
 * What getShippingDocuments and dispatchOrders return of the service's documents
 * (lib/client/shipping-documents-answer.ts), issue 47 item 7: the extension only as documented
 * (PDF, ZPL, EPL — in any case, trimmed, one leading dot), the URL only as an absolute http(s) URL.
 * Anything else is an invalid answer (INVALID_RESPONSE naming the field, not its value), never a
 * value a merchant would build a file name or a link from (`EXE`, `./X`, `PDF.EXE`, `javascript:`).
 */
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure } from './setup.js';

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');
const parcel = { ParcelCode: 'P-1', Products: [{ ProductCode: 'SKU0', CartItemId: 'ci-1', DeliveryQuantity: 1 }] };
const doc = (extra: Record<string, unknown>) => ({ DocumentTypeCode: '4', DocumentExtension: 'PDF', DocumentData: PDF.toString('base64'), URL: 'https://docs.example.com/l/1', ...extra });

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(); });
afterEach(() => svc.close());

const CALLS = {
  getShippingDocuments: (client: ReturnType<typeof clientFor>['client']) => client.getShippingDocuments({ OrderId: 'GE1', Parcels: [parcel] }),
  dispatchOrders: (client: ReturnType<typeof clientFor>['client']) => client.dispatchOrders({ OrderIds: ['GE1'] }),
};

describe.each(Object.entries(CALLS))('%s', (_name, call) => {
  test.each<[string, string]>([
    ['PDF', 'PDF'], ['pdf', 'PDF'], ['.Pdf', 'PDF'], [' zpl ', 'ZPL'], ['ZPL', 'ZPL'], ['epl', 'EPL'], ['.EPL', 'EPL'],
  ])('DocumentExtension %j is %s', async (sent, read) => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: true, Documents: [doc({ DocumentExtension: sent })], ShipperManifests: [doc({ DocumentExtension: sent })] } }));
    const result = await call(clientFor(svc).client);
    expect(result.Documents[0].DocumentExtension).toBe(read);
    expect(result.ShipperManifests[0].DocumentExtension).toBe(read);
    expect(result.Documents[0].Content!.equals(PDF)).toBe(true);
  });

  test.each([['exe'], ['../x'], ['.PDF.exe'], ['pdf.exe'], ['..pdf'], ['PDFX'], ['P DF'], ['html'], ['pdf/../../x'], ['ZPL\n.exe']])(
    'DocumentExtension %j: INVALID_RESPONSE naming the field, not the value', async (sent) => {
      svc.answer(() => ({ status: 200, body: { IsSuccess: true, Documents: [doc({}), doc({ DocumentExtension: sent })] } }));
      const err = await failure(call(clientFor(svc).client));
      expect(err).toMatchObject({ name: 'ServiceError', code: 'INVALID_RESPONSE', status: 200, retryable: false });
      expect(err.description).toBe('the 2xx answer\'s /Documents/1/DocumentExtension is not one of PDF, ZPL, EPL (any case, an optional leading dot); no document is returned');
    });

  test('a manifest\'s extension is checked like a document\'s', async () => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: true, Documents: [], ShipperManifests: [doc({ DocumentExtension: 'bat' })] } }));
    const err = await failure(call(clientFor(svc).client));
    expect(err.description).toMatch(/^the 2xx answer's \/ShipperManifests\/0\/DocumentExtension is not one of PDF, ZPL, EPL/);
  });

  test.each([['https://docs.example.com/l/1'], ['http://127.0.0.1:8080/doc?id=1'], ['  HTTPS://DOCS.EXAMPLE.COM/x  ']])('URL %j is returned (trimmed)', async (url) => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: true, Documents: [doc({ URL: url })] } }));
    expect((await call(clientFor(svc).client)).Documents[0].URL).toBe(url.trim());
  });

  test.each([['javascript:alert(1)'], ['file:///etc/passwd'], ['data:application/pdf;base64,JVBERi0='], ['../labels/1.pdf'], ['/labels/1.pdf'], ['ftp://docs.example.com/1'], ['docs.example.com/1']])(
    'URL %j: INVALID_RESPONSE naming the field, not the value', async (url) => {
      svc.answer(() => ({ status: 200, body: { IsSuccess: true, Documents: [doc({ URL: url })] } }));
      const err = await failure(call(clientFor(svc).client));
      expect(err).toMatchObject({ code: 'INVALID_RESPONSE' });
      expect(err.description).toBe('the 2xx answer\'s /Documents/0/URL is not an absolute http(s) URL; no document is returned');
    });

  test('a blank or null extension or URL is left out, not refused', async () => {
    svc.answer(() => ({ status: 200, body: { IsSuccess: true, Documents: [doc({ DocumentExtension: ' ', URL: '' }), doc({ DocumentExtension: null, URL: null })] } }));
    const result = await call(clientFor(svc).client);
    for (const d of result.Documents) {
      expect(d).not.toHaveProperty('DocumentExtension');
      expect(d).not.toHaveProperty('URL');
      expect(d.Content!.equals(PDF)).toBe(true);
    }
  });
});
