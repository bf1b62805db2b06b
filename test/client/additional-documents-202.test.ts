/**
 * Issue 34 items 5 and 7 (docs/compatibility.md row R3-5): CreateAdditionalRequiredDocuments as its page
 * documents it (GD createadditionalrequireddocuments; test/fixtures/real-world-3/): the example request
 * is sent as printed; "200: {"Success":true}" and "202 — request was accepted, and document will be
 * provided when ready" resolve, the latter also without a body; B001 is a ServiceError. A 2xx without a
 * body anywhere else (200 or 204 here, a 202 of an operation that returns data) stays INVALID_RESPONSE.
 */
import { fakeService, type FakeService } from './fake-service.js';
import { clientFor, failure } from './setup.js';
import { fixture } from '../fixtures/index.js';

const page = (name: string) => fixture(`real-world-3/gedocs-createadditionalrequireddocuments-${name}.json`);
let svc: FakeService;
beforeEach(async () => { svc = await fakeService(() => ({ status: 202 })); });
afterEach(() => svc.close());

test('the page\'s request is sent as printed; a 202 without a body resolves as accepted', async () => {
  const { client } = clientFor(svc);
  expect(await client.requestAdditionalRequiredDocuments(page('request').Orders)).toEqual({ Success: true });
  expect(svc.received[0].json).toEqual(page('request'));
  expect(svc.count()).toBe(1);
});

test.each([[200], [202]])('%i with the page\'s success body resolves', async (status) => {
  svc.answer(() => ({ status, body: page('response-success') }));
  expect(await clientFor(svc).client.requestAdditionalRequiredDocuments(page('request').Orders)).toEqual({ Success: true });
});

test('the page\'s B001 answer (400) is a ServiceError B001 with the service\'s description, sent once', async () => {
  svc.answer(() => ({ status: 400, body: page('response-error-B001') }));
  const err = await failure(clientFor(svc).client.requestAdditionalRequiredDocuments(page('request').Orders));
  expect(err).toMatchObject({ code: 'B001', status: 400, retryable: false, description: 'The Order GE12345US provided by the merchant does not exist.' });
  expect(svc.count()).toBe(1);
});

test.each([[200], [204]])('a %i without a body stays INVALID_RESPONSE', async (status) => {
  svc.answer(() => ({ status }));
  const err = await failure(clientFor(svc).client.requestAdditionalRequiredDocuments(page('request').Orders));
  expect(err).toMatchObject({ code: 'INVALID_RESPONSE', status });
});

test('a 202 without a body where the operation needs data (shipment information, hub details) stays INVALID_RESPONSE', async () => {
  const { client } = clientFor(svc, { retry: { retries: 0 } });
  expect(await failure(client.getShipmentInformation('T1'))).toMatchObject({ code: 'INVALID_RESPONSE', status: 202 });
  expect(await failure(client.getActiveHubDetails())).toMatchObject({ code: 'INVALID_RESPONSE', status: 202 });
});
