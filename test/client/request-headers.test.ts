/**
 * The Accept header the client sends (lib/client/request.ts, `credentials`): `application/json` for
 * every operation answered in JSON; `application/pdf, application/json` for the one answered with
 * the file's bytes (getOrdersVatInvoice: the PDF, or the service's JSON error). A service that
 * negotiates on Accept would otherwise answer the invoice call in JSON, or the JSON calls in another
 * type. The client's value stands even when the `headers` option names an Accept of its own.
 * Content-Type (application/json) goes with a body only.
 */
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, fixture } from './setup.js';

const PDF = '%PDF-1.4\n%%EOF\n';

let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 200, body: { APIVersion: '1', WebClientVersion: '2' } })); });
afterEach(() => svc.close());

test('a JSON operation (AppVersion) is sent with accept: application/json; content-type only with a body', async () => {
  const { client } = clientFor(svc);
  await client.getAppVersion();
  expect(svc.received[0].headers.accept).toBe('application/json');
  expect(svc.received[0].headers['content-type']).toBeUndefined();
  svc.answer(() => ({ status: 200, body: { CartToken: 'c-1' } }));
  await client.sendCartV2(fixture('send-cart-request'));
  expect([svc.received[1].headers.accept, svc.received[1].headers['content-type']]).toEqual(['application/json', 'application/json']);
});

test('the commercial invoice (GetOrdersVATInvoice) is sent with accept: application/pdf, application/json', async () => {
  svc.answer(() => ({ status: 200, body: PDF, headers: { 'content-type': 'application/pdf' } }));
  const { client } = clientFor(svc);
  await client.getOrdersVatInvoice(['GE100000001SB']);
  expect(svc.received[0].headers.accept).toBe('application/pdf, application/json');
});

test('an accept in the headers option does not replace the client\'s (each call reads its answer as it asked)', async () => {
  const { client } = clientFor(svc, { headers: { accept: 'text/html', 'x-shop': 'a' } });
  await client.getAppVersion();
  svc.answer(() => ({ status: 200, body: PDF, headers: { 'content-type': 'application/pdf' } }));
  await client.getOrdersVatInvoice(['GE100000001SB']);
  expect(svc.received.map((r) => [r.headers.accept, r.headers['x-shop']])).toEqual([['application/json', 'a'], ['application/pdf, application/json', 'a']]);
});
