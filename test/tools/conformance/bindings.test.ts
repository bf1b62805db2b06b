/**
 * The conformance checker against the example shop mounted on every binding, served on loopback
 * (fetch and Lambda through the node:http adapters of test/helpers/web-adapters.ts): every check passes.
 */
import { CHECK_IDS } from '../../../lib/tools/conformance/index.js';
import { BINDINGS } from '../../helpers/bindings.js';
import { shopConformance } from '../../helpers/shop-conformance.js';

describe.each(BINDINGS)('%s', (_name, mount) => {
  test('the example shop passes every conformance check', async () => {
    const report = await shopConformance(mount);
    expect(report.checks.filter((c) => c.status !== 'pass')).toEqual([]);
    expect(report.checks.map((c) => c.id)).toEqual(CHECK_IDS);
  });
});
