/**
 * The parse step's logger (issue 36): a payload whose only secrets are the configured MerchantGUID —
 * in any letter case, as the kit accepts it — makes no per-delivery child logger (the kit's logger
 * masks it already, in any case); card data or another GUID does, with those values to mask. And the
 * keyed card digest is set for a delivery with card data only.
 */
import { jest } from '@jest/globals';
import { createParser, parse } from '../../../lib/core/stages/parse.js';
import { resolveOptions } from '../../../lib/core/options.js';
import { DEFAULT_REGISTRY, type CallbackName } from '../../../lib/core/registry.js';
import type { Parsed, Started } from '../../../lib/core/stages/types.js';
import { rawBody } from '../../../lib/core/body.js';
import { CARD_NUMBER, MERCHANT_GUID, OTHER_GUID, paymentOrder, statusUpdate } from '../../helpers/orders.js';
import { recordingAdapter } from '../../helpers/recording.js';

const options = resolveOptions({ merchantGuid: MERCHANT_GUID.toUpperCase(), adapter: recordingAdapter(), logger: false });
const parser = createParser(options);

function deliver(callback: CallbackName, body: unknown) {
  const child = jest.fn((_bindings: object, _secrets?: Iterable<string | RegExp>) => log);
  const log = { debug() {}, info() {}, warn() {}, error() {}, child } as unknown as Started['log'];
  const started = {
    callback, entry: DEFAULT_REGISTRY.byName[callback], log, requestId: 'test',
    request: { method: 'POST', path: '/x', query: {}, headers: { 'content-type': 'application/json' } },
    body: rawBody(JSON.stringify(body)),
  } as unknown as Started;
  const d = { child, state: undefined as Parsed | undefined, run: async () => { d.state = parse(parser, started); } };
  return d;
}

test('only the configured GUID, in another letter case than configured: no child logger', async () => {
  for (const guid of [MERCHANT_GUID, MERCHANT_GUID.toUpperCase()]) {
    const d = deliver('updateOrderStatus', statusUpdate('canceled', { MerchantGUID: guid }));
    await d.run();
    expect(d.child).not.toHaveBeenCalled();
  }
});

test('another GUID or card data: a child logger with those values to mask', async () => {
  const other = deliver('updateOrderStatus', statusUpdate('canceled', { MerchantGUID: OTHER_GUID }));
  await other.run();
  expect(other.child).toHaveBeenCalledTimes(1);
  expect([...(other.child.mock.calls[0][1] ?? [])]).toContain(OTHER_GUID);
  const paid = deliver('performOrderPayment', paymentOrder());
  await paid.run();
  expect(paid.child).toHaveBeenCalledTimes(1);
  const given = [...(paid.child.mock.calls[0][1] ?? [])];
  expect(given).toContain(CARD_NUMBER);
  // …and the card mask's pattern, so the card in any other spelling is masked too.
  const pattern = given.find((x): x is RegExp => x instanceof RegExp);
  expect('4111 1111-1111.1111'.replace(pattern!, '#')).toBe('#');
  // Without card data, only the values themselves (no pattern).
  expect([...(other.child.mock.calls[0][1] ?? [])].some((x) => x instanceof RegExp)).toBe(false);
});

test('the card digest: set with card data, undefined without', async () => {
  const paid = deliver('performOrderPayment', paymentOrder());
  await paid.run();
  expect(paid.state?.cardDigest).toMatch(/^[0-9a-f]{64}$/);
  const plain = deliver('updateOrderStatus', statusUpdate());
  await plain.run();
  expect(plain.state).toBeDefined();
  expect(plain.state?.cardDigest).toBeUndefined();
});
