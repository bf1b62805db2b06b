/**
 * Issue 36 item 4 (callback side): a configured credential is masked in every log line in any letter
 * case, the MerchantGUID also with or without braces and hyphens — e.g. an ERP that upper-cases
 * GUIDs and throws `merchant 5B0E6C2A-… unknown in ERP` (docs/options.md: configured values never
 * appear in a log line).
 */
import { createCallbackKit } from 'crossborder-merchant-kit';
import { MERCHANT_GUID, statusUpdate } from '../helpers/orders.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const HEADER_SECRET = 'Hdr-Secret-x7Q2w9';
const SPELLINGS = [
  MERCHANT_GUID.toUpperCase(), `{${MERCHANT_GUID}}`, `{${MERCHANT_GUID.toUpperCase()}}`,
  MERCHANT_GUID.replace(/-/g, ''), MERCHANT_GUID.replace(/-/g, '').toUpperCase(),
];

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST', path: '/UpdateOrderStatus', query: {}, body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', 'x-callback-secret': HEADER_SECRET, ...headers },
});

describe('configured credentials in another spelling never reach a log line', () => {
  test.each(SPELLINGS.map((s) => [s]))('an adapter error carrying the GUID as %s', async (spelling) => {
    const logger = captureLogger();
    const kit = createCallbackKit({
      merchantGuid: MERCHANT_GUID, logger,
      adapter: recordingAdapter({ updateOrderStatus: () => { throw new Error(`merchant ${spelling} unknown in ERP`); } }),
    });
    const res = await kit.handle('updateOrderStatus', post(statusUpdate()));
    expect(res.status).toBe(500);
    const text = logger.text();
    expect(text).toContain('merchant [REDACTED] unknown in ERP');
    expect(text).not.toContain(spelling);
    expect(text.toLowerCase()).not.toContain(MERCHANT_GUID.replace(/-/g, '').slice(0, 12));
  });

  test('an auth secret in another case is masked too', async () => {
    const logger = captureLogger();
    const kit = createCallbackKit({
      merchantGuid: MERCHANT_GUID, logger, auth: { header: { name: 'X-Callback-Secret', value: HEADER_SECRET } },
      adapter: recordingAdapter({ updateOrderStatus: () => { throw new Error(`bad ${HEADER_SECRET.toUpperCase()} / ${HEADER_SECRET.toLowerCase()}`); } }),
    });
    expect((await kit.handle('updateOrderStatus', post(statusUpdate()))).status).toBe(500);
    const text = logger.text();
    expect(text).toContain('bad [REDACTED] / [REDACTED]');
    expect(text.toLowerCase()).not.toContain(HEADER_SECRET.toLowerCase());
  });

  test('a payload GUID in another case than the configured one is masked (the kit accepts it)', async () => {
    const logger = captureLogger();
    const kit = createCallbackKit({
      merchantGuid: MERCHANT_GUID, logger,
      adapter: recordingAdapter({ updateOrderStatus: () => { throw new Error(`ERP says ${MERCHANT_GUID.toUpperCase()} and ${MERCHANT_GUID}`); } }),
    });
    const res = await kit.handle('updateOrderStatus', post(statusUpdate('canceled', { MerchantGUID: MERCHANT_GUID.toUpperCase() })));
    expect(res.status).toBe(500);
    expect(logger.text().toLowerCase()).not.toContain(MERCHANT_GUID);
  });
});
