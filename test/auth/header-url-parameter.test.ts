import request from 'supertest';
import { createHeaderStrategy, createUrlParameterStrategy, type CallbackRequest } from 'crossborder-merchant-kit';
import { buildCartInfoQuery, buildOrder } from 'crossborder-merchant-kit/testing';
import { createSafeLogger } from '../../lib/shared/logger.js';
import { captureLogger } from '../helpers/recording.js';
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

describe('header and URL parameter strategies on their own: names, reasons, rotation', () => {
  const req = (headers: CallbackRequest['headers'], query: CallbackRequest['query'] = {}): CallbackRequest =>
    ({ method: 'POST', path: '/', headers, query, remoteAddress: '127.0.0.1' });
  const info = { log: createSafeLogger(captureLogger()), callback: 'sendOrderToMerchant' as const };

  test('header: exact refusal reasons name the header (lower case), never the value', async () => {
    const h = createHeaderStrategy(HEADER);
    expect(await h.authenticate(req({}), info)).toEqual({ ok: false, reason: 'header x-callback-secret missing' });
    expect(await h.authenticate(req({ 'x-callback-secret': [] }), info)).toEqual({ ok: false, reason: 'header x-callback-secret missing' });
    expect(await h.authenticate(req({ 'x-callback-secret': ['hdr-current-7Qz9', 'hdr-current-7Qz9'] }), info))
      .toEqual({ ok: false, reason: 'header x-callback-secret sent more than once' });
    expect(await h.authenticate(req({ 'x-callback-secret': 'nope' }), info)).toEqual({ ok: false, reason: 'header x-callback-secret does not match' });
    expect(await h.authenticate(req({ 'x-callback-secret': ['hdr-previous-K2p4'] }), info)).toEqual({ ok: true });
    expect(h.secrets).toEqual(HEADER.value);
  });

  test('URL parameter: exact refusal reasons name the parameter, never the value', async () => {
    const p = createUrlParameterStrategy(PARAM);
    expect(await p.authenticate(req({}, {}), info)).toEqual({ ok: false, reason: 'query parameter key missing' });
    expect(await p.authenticate(req({}, { key: ['a', 'b'] }), info)).toEqual({ ok: false, reason: 'query parameter key sent more than once' });
    expect(await p.authenticate(req({}, { key: 'nope' }), info)).toEqual({ ok: false, reason: 'query parameter key does not match' });
    expect(await p.authenticate(req({}, { key: 'par-previous-M5r1' }), info)).toEqual({ ok: true });
    expect(p.secrets).toEqual(PARAM.value);
  });

  test('header names: any HTTP token is accepted, anything else refused with the option named', () => {
    expect(createHeaderStrategy({ name: "X-Key_1.~!#$%&'*+^`|", value: 's3cret' }).name).toBe('header');
    for (const name of ['X Key', 'X-Key:', '', 'Ключ'] as const) {
      expect(() => createHeaderStrategy({ name, value: 's3cret' }))
        .toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID', message: 'Option auth.header.name must be an HTTP header name such as "X-Callback-Secret" [ERR_CBK_OPTION_INVALID]' }));
    }
    expect(() => createHeaderStrategy({ name: 'X-Key', value: [] }))
      .toThrow(expect.objectContaining({ message: expect.stringMatching(/^Option auth\.header\.value must be a non-empty string/) }));
  });

  test('parameter names: letters, digits and . _ ~ - only; the service\'s own parameters are refused', () => {
    expect(createUrlParameterStrategy({ name: 'my.key_1~-', value: 's3cret' }).name).toBe('urlParameter');
    for (const name of ['my key', 'k&x', 'k=v', '']) {
      expect(() => createUrlParameterStrategy({ name, value: 's3cret' }))
        .toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID', message: 'Option auth.urlParameter.name must be a query parameter name (letters, digits, . _ ~ -) [ERR_CBK_OPTION_INVALID]' }));
    }
    for (const name of ['merchantCartToken', 'countryCode', 'currencyCode']) {
      expect(() => createUrlParameterStrategy({ name, value: 's3cret' })).toThrow(expect.objectContaining({
        code: 'ERR_CBK_OPTION_INVALID', message: `Option auth.urlParameter.name must be a parameter of your own, not ${name} (the service sends that one) [ERR_CBK_OPTION_INVALID]`,
      }));
    }
    expect(() => createUrlParameterStrategy({ name: 'key', value: [''] }))
      .toThrow(expect.objectContaining({ message: expect.stringMatching(/^Option auth\.urlParameter\.value must be a non-empty string/) }));
  });
});
