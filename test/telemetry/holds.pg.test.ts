/**
 * cbk.holds.active over PostgreSQL: the gauge of a kit in one process reports the holds placed and
 * released through another instance (another process) — the count is the database's, not the
 * process's — and namespacedStore views of one PostgresStore report one series per namespace.
 */
import { createCallbackKit } from 'crossborder-merchant-kit';
import { namespacedStore, type Store } from 'crossborder-merchant-kit/store';
import { MERCHANT_GUID } from '../helpers/orders.js';
import { installOtel, type OtelHarness } from '../helpers/otel.js';
import { otelPending } from '../../lib/telemetry/otel.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';
import { postgresFactory } from '../store/harness.js';

const pg = postgresFactory();
let otel: OtelHarness;
beforeEach(() => { otel = installOtel(); });
afterEach(() => otel.uninstall());
afterAll(() => pg.close());

const EAD = [{ DocumentTypeCode: '11', TrackingNumber: 'T-1' }];
// The API is imported once a provider is registered (lib/telemetry/otel.ts): the gauge exists once that import settled.
const holds = async () => { await otelPending(); return (await otel.points()).filter((p) => p.name === 'cbk.holds.active'); };
const kitOver = (store: Store, merchantGuid = MERCHANT_GUID) => createCallbackKit({ merchantGuid, adapter: recordingAdapter(), store, logger: captureLogger() });

test("a kit's gauge counts the holds another process placed and released", async () => {
  const { store, twin } = await pg.factory();
  const other = twin(); // another process on the same database
  await other.placeFulfilmentHold('GE-1', EAD);
  await other.placeFulfilmentHold('GE-2', EAD);
  await other.placeFulfilmentHold('GE-3', EAD);
  kitOver(store);
  expect((await holds()).map((p) => [p.value, p.attributes])).toEqual([[3, {}]]);

  await other.recordDocuments('GE-1', EAD);
  await other.releaseFulfilmentHold('GE-2');
  kitOver(twin()); // a kit built now counts afresh (the first one's count may be up to 10 s old)
  expect((await holds()).map((p) => p.value)).toEqual([1]);
});

test('namespacedStore views of one PostgresStore: one series per namespace', async () => {
  const { store } = await pg.factory();
  const eu = namespacedStore(store, 'eu');
  const us = namespacedStore(store, 'e_');
  kitOver(eu, 'e0e0e0e0-0000-4000-8000-0000000000e0');
  kitOver(us, 'a5a5a5a5-0000-4000-8000-0000000000a5');
  await eu.placeFulfilmentHold('GE-1', EAD);
  await eu.placeFulfilmentHold('GE-2', EAD);
  await us.placeFulfilmentHold('GE-1', EAD);
  const namespaced = (await holds()).filter((p) => 'cbk.store.namespace' in p.attributes); // the first test's kit may still report its own
  const byNamespace = Object.fromEntries(namespaced.map((p) => [p.attributes['cbk.store.namespace'], p.value]));
  expect(byNamespace).toEqual({ eu: 2, e_: 1 });
});
