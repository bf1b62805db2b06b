/** MemoryStore's options: checked when it is built, each error with its code and a message naming the option. */
import { KitError } from 'crossborder-merchant-kit';
import { MemoryStore, type MemoryStoreOptions } from 'crossborder-merchant-kit/store';

/** The code and message of the KitError that building the store with `options` throws. */
function errorOf(options: unknown): { code: string; message: string } {
  try {
    new MemoryStore(options as MemoryStoreOptions);
  } catch (e) {
    expect(e).toBeInstanceOf(KitError);
    return { code: (e as KitError).code, message: (e as KitError).message };
  }
  throw new Error(`new MemoryStore(${JSON.stringify(options)}) did not throw`);
}

describe('MemoryStore options', () => {
  test('defaults: a 30-day ttl and 50 000 entries; nothing passed is the same as {}', () => {
    for (const store of [new MemoryStore(), new MemoryStore({}), new MemoryStore(undefined)]) {
      expect(store.ttlMs).toBe(30 * 86_400_000);
      expect(store.maxEntries).toBe(50_000);
    }
  });

  test('options that are not an object are refused', () => {
    for (const bad of [null, 'ttl=1d', 42, true]) {
      expect(errorOf(bad)).toMatchObject({ code: 'ERR_CBK_OPTION_INVALID', message: 'MemoryStore options must be an object [ERR_CBK_OPTION_INVALID]' });
    }
  });

  test('a misspelt option is refused with did-you-mean; both known options are accepted together', () => {
    expect(errorOf({ maxEntry: 10 })).toMatchObject({
      code: 'ERR_CBK_OPTION_UNKNOWN',
      message: 'Unknown option MemoryStore.maxEntry; did you mean "MemoryStore.maxEntries"? (known: ttl, maxEntries) [ERR_CBK_OPTION_UNKNOWN]',
    });
    expect(errorOf({ ttl: '1d', TTL: '2d' })).toMatchObject({ code: 'ERR_CBK_OPTION_UNKNOWN', message: expect.stringContaining('MemoryStore.TTL') });
    const store = new MemoryStore({ ttl: 5_000, maxEntries: 7 });
    expect([store.ttlMs, store.maxEntries]).toEqual([5_000, 7]);
  });

  test('a ttl that is not a positive duration is refused, naming MemoryStore.ttl', () => {
    for (const bad of [0, -1, Number.NaN, 'soon', '0d', '']) {
      expect(errorOf({ ttl: bad })).toMatchObject({
        code: 'ERR_CBK_OPTION_INVALID',
        message: "Option MemoryStore.ttl must be milliseconds or a duration like '30d', '12h', '90m', '45s' [ERR_CBK_OPTION_INVALID]",
      });
    }
  });

  test('maxEntries must be a positive integer; 1 is the smallest store', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '10']) {
      expect(errorOf({ maxEntries: bad })).toMatchObject({
        code: 'ERR_CBK_OPTION_INVALID',
        message: 'Option MemoryStore.maxEntries must be a positive integer [ERR_CBK_OPTION_INVALID]',
      });
    }
    expect(new MemoryStore({ maxEntries: 1 }).maxEntries).toBe(1);
  });
});
