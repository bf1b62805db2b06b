import request from 'supertest';
import { buildCartInfoQuery, buildOrder } from 'crossborder-merchant-kit/testing';
import { BINDINGS } from '../helpers/bindings.js';
import { expectAccepted, expectRefused, refusalReason, setup } from './fixtures.js';

const HEADER = { name: 'X-Callback-Secret', value: ['hdr-current-7Qz9', 'hdr-previous-K2p4'] };
const PARAM = { name: 'key', value: ['par-current-8Lw3', 'par-previous-M5r1'] };

describe.each(BINDINGS)('%s: custom header', (_name, mount) => {
  const post = (app: any, headers: Record<string, string>) =>
    request(app).post('/cb/SendOrderToMerchant').set(headers).send(buildOrder());

  test.each([
    ['wrong value of the same length', { 'X-Callback-Secret': 'hdr-current-7Qz8' }],
    ['wrong value of a different length', { 'X-Callback-Secret': 'hdr-current-7Qz9-and-more' }],
    ['empty value', { 'X-Callback-Secret': '' }],
    ['header missing', {}],
    ['right value in another header', { 'X-Callback-Token': 'hdr-current-7Qz9' }],
  ])('%s is refused', async (_case, headers) => {
    const s = setup({ header: HEADER });
    expectRefused(await post(mount(s.options), headers), s, 401);
    expect(refusalReason(s)).toMatch(/^auth strategy header refused: /);
    expect(s.logger.text()).not.toContain('hdr-current-7Qz9');
  });

  test('current and previous value are accepted, header name case-insensitive', async () => {
    const s = setup({ header: HEADER });
    const app = mount(s.options);
    expect((await post(app, { 'x-callback-secret': 'hdr-current-7Qz9' })).status).toBe(200);
    expect((await post(app, { 'X-CALLBACK-SECRET': 'hdr-previous-K2p4' })).status).toBe(200);
    expect(s.adapter.calls).toHaveLength(2);
  });

  test('the configured value is masked when the adapter logs the headers', async () => {
    const s = setup({ header: HEADER });
    s.options.adapter.sendOrderToMerchant = async (_o, ctx) => { ctx.log.info({ seen: ctx.headers }, 'adapter saw'); return { InternalOrderId: 'A-1' }; };
    expect((await post(mount(s.options), { 'X-Callback-Secret': 'hdr-current-7Qz9' })).status).toBe(200);
    expect(s.logger.text()).toContain('adapter saw');
    expect(s.logger.text()).not.toContain('hdr-current-7Qz9');
  });
});

describe.each(BINDINGS)('%s: custom URL parameter', (_name, mount) => {
  const get = (app: any, query: Record<string, string | string[]>) =>
    request(app).get('/cb/GetCheckoutCartInfo').query({ ...buildCartInfoQuery(), ...query });

  test.each([
    ['wrong value of the same length', { key: 'par-current-8Lw4' }],
    ['wrong value of a different length', { key: 'par' }],
    ['parameter missing', {}],
    ['parameter repeated', { key: ['par-current-8Lw3', 'par-current-8Lw3'] }],
    ['parameter name in another case', { KEY: 'par-current-8Lw3' }],
  ])('%s is refused', async (_case, query) => {
    const s = setup({ urlParameter: PARAM });
    expectRefused(await get(mount(s.options), query), s, 401);
    expect(refusalReason(s)).toMatch(/^auth strategy urlParameter refused: /);
  });

  test('current and previous value are accepted on GetCheckoutCartInfo and on a POSTed order', async () => {
    const s = setup({ urlParameter: PARAM });
    const app = mount(s.options);
    expectAccepted(await get(app, { key: 'par-current-8Lw3' }), s);
    const res = await request(app).post('/cb/SendOrderToMerchant?key=par-previous-M5r1').send(buildOrder());
    expect(res.status).toBe(200);
    expect(s.adapter.calls).toHaveLength(2);
  });
});
