/** The one duration grammar and the one CIDR parser of lib/shared, as every option that takes them reads them. */
import { parseIpAddress, parseIpRange } from '../../lib/shared/cidr.js';
import { parseDuration } from '../../lib/shared/options.js';
import { compileTrustProxy } from '../../lib/bindings/node/trust-proxy.js';
import { createIpAllowListStrategy } from '../../lib/auth/ip-allow-list.js';

test('durations: numbers in the option\'s unit, short and long unit names, zero only where allowed', () => {
  expect(parseDuration(undefined, 'ttl', 7)).toBe(7);
  expect(parseDuration(1500, 'ttl', 0)).toBe(1500);
  expect(parseDuration('500ms', 'ttl', 0)).toBe(500);
  expect(parseDuration('45s', 'ttl', 0)).toBe(45_000);
  expect(parseDuration('90m', 'ttl', 0)).toBe(5_400_000);
  expect(parseDuration('12h', 'ttl', 0)).toBe(43_200_000);
  expect(parseDuration('30 days', 'ttl', 0)).toBe(2_592_000_000);
  expect(parseDuration('2w', 'ttl', 0)).toBe(1_209_600_000);
  expect(parseDuration(30, 'clockTolerance', 0, { numberUnit: 's' })).toBe(30_000);
  expect(parseDuration(0, 'clockTolerance', 0, { numberUnit: 's', allowZero: true })).toBe(0);
  for (const bad of [0, -1, '0s', '-5m', '30 dayz', '5', 'soon', Number.NaN, '0.0001ms']) {
    expect(() => parseDuration(bad, 'ttl', 0)).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
  }
  expect(() => parseDuration('x', 'clockTolerance', 0, { numberUnit: 's' })).toThrow(/number of seconds/);
});

test('CIDR: one rule set for auth.ipAllowList and trustProxy', () => {
  expect(parseIpRange('10.0.0.0/8')).toMatchObject({ bits: 8 });
  expect(parseIpRange('::ffff:203.0.113.0/120')).toMatchObject({ bits: 24 });
  expect((parseIpRange('::ffff:203.0.113.0/120') as { address: { kind(): string } }).address.kind()).toBe('ipv4');
  for (const bad of ['10.0.0.1/8', '127.1', '10.0.0.0/33', 'nope', '2001:db8::/129']) expect(parseIpRange(bad)).toHaveProperty('error');
  expect(parseIpAddress('::ffff:127.0.0.1')?.toString()).toBe('127.0.0.1');
  expect(parseIpAddress('0x7f.0.0.1')).toBeNull();
  // The same entry is refused the same way by both options.
  expect(() => createIpAllowListStrategy(['10.0.0.1/8'])).toThrow(/host bits set.*did you mean "10\.0\.0\.0\/8"/);
  expect(() => compileTrustProxy(['10.0.0.1/8'])).toThrow(/host bits set.*did you mean "10\.0\.0\.0\/8"/);
  expect(compileTrustProxy('loopback').clientAddress('127.0.0.1', '203.0.113.7')).toBe('203.0.113.7');
});
