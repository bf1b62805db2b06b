/**
 * Compile-time contract of the callback registry (lib/core/registry.ts), checked by `npm run typecheck`
 * (tsc fails when an `@ts-expect-error` line compiles): the registry literal is checked with
 * `satisfies Registry`, so each mistake below in it is a compile error. Nothing here runs.
 */
import type { CallbackTypes } from '../../lib/core/adapter-types.js';
import { REGISTRY, type Registry, type SameNames } from '../../lib/core/registry.js';

export function checks(): void {
  // The registry as it is compiles.
  void (REGISTRY satisfies Registry);
  const same: SameNames<keyof typeof REGISTRY, keyof CallbackTypes> = true;

  // An entry without one of its fields.
  const { bodyLimit: _limit, ...withoutLimit } = REGISTRY.sendOrderToMerchant;
  // @ts-expect-error bodyLimit is missing from the entry
  void ({ ...REGISTRY, sendOrderToMerchant: withoutLimit } satisfies Registry);

  // An entry with a field CallbackEntry does not have (a misspelt one, here).
  // @ts-expect-error exactlyonce is not a field of an entry (exactlyOnce is)
  void ({ ...REGISTRY, sendOrderToMerchant: { ...REGISTRY.sendOrderToMerchant, exactlyonce: true } } satisfies Registry);

  // An entry whose name is not its key.
  // @ts-expect-error the entry under updateOrderStatus names itself sendOrderToMerchant
  void ({ ...REGISTRY, updateOrderStatus: REGISTRY.sendOrderToMerchant } satisfies Registry);

  // A new callback's entry without its CallbackTypes line.
  void ({
    ...REGISTRY,
    // @ts-expect-error notifyOrderShipped has no line in CallbackTypes
    notifyOrderShipped: { ...REGISTRY.updateOrderShippingInfo, name: 'notifyOrderShipped', defaultPath: '/NotifyOrderShipped' },
  } satisfies Registry);

  // A CallbackTypes line without its entry.
  const { receiveRmaInfo: _rma, ...withoutRma } = REGISTRY;
  // @ts-expect-error receiveRmaInfo is in CallbackTypes but has no entry
  void (withoutRma satisfies Registry);

  // The same two mistakes, seen by the name-set assertion the registry module makes.
  // @ts-expect-error a name CallbackTypes does not have
  const extra: SameNames<keyof typeof REGISTRY | 'notifyOrderShipped', keyof CallbackTypes> = true;
  // @ts-expect-error a CallbackTypes key the registry does not have
  const missing: SameNames<keyof typeof withoutRma, keyof CallbackTypes> = true;
  void [same, extra, missing];
}
