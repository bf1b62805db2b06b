/**
 * Issue 27 item 5 over every binding: a 5xx the kit writes has exactly one error log line with its
 * cause, also when the binding itself fails (here: a custom strategy's reply header holds a newline,
 * which no HTTP runtime can put on the wire).
 */
import request from 'supertest';
import type { CallbackKitOptions } from 'crossborder-merchant-kit';
import { buildOrder, TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';
import { BINDINGS } from '../helpers/bindings.js';
import { captureLogger, recordingAdapter } from '../helpers/recording.js';

const badHeaderStrategy = {
  name: 'custom',
  authenticate: () => ({ ok: false as const, reason: 'no token', headers: { 'www-authenticate': 'Bearer\nrealm="x"' } }),
};

describe.each(BINDINGS)('%s: failures are never silent', (_name, mount) => {
  test('a reply header the runtime cannot write: 500 INTERNAL_ERROR and one error line naming the cause', async () => {
    const logger = captureLogger();
    const adapter = recordingAdapter();
    const app = mount({ merchantGuid: TEST_MERCHANT_GUID, adapter, logger, auth: { strategies: [badHeaderStrategy] } } as CallbackKitOptions);
    const res = await request(app).post('/cb/SendOrderToMerchant').send(buildOrder());
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ Success: false, ErrorCode: 'INTERNAL_ERROR' });
    expect(res.headers['www-authenticate']).toBeUndefined();
    const errors = logger.lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].msg).toBe('callback binding failed');
    expect(JSON.stringify(errors[0].obj.err)).toMatch(/www-authenticate|header/i);
    expect(adapter.calls).toHaveLength(0);
  });

  test('an adapter that throws: 500 and exactly one error line (the delivery\'s), none from the binding', async () => {
    const logger = captureLogger();
    const adapter = recordingAdapter({ sendOrderToMerchant: () => { throw new Error('warehouse down'); } });
    const res = await request(mount({ merchantGuid: TEST_MERCHANT_GUID, adapter, logger } as CallbackKitOptions))
      .post('/cb/SendOrderToMerchant').send(buildOrder());
    expect(res.status).toBe(500);
    const errors = logger.lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0].obj)).toContain('warehouse down');
  });
});
