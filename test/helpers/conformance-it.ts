/**
 * Our own suites run runStoreConformance against stores that lack some capabilities (MemoryStore has
 * no batching; the core-only MapStore example has none). The library registers those checks with
 * `it.skip`, named `… [skipped: the store does not declare the capability X]`, which is what a user's
 * suite shows. Here each such registration becomes a test of its own that asserts the skip is for a
 * capability the store really lacks, so our report has no skipped tests and a wrong skip fails.
 */
export function itCheckingSkips(lacking: readonly string[]): typeof it & { skip: (name: string, body: () => unknown) => void } {
  const wrapped = ((name: string, fn: () => unknown, timeout?: number) => it(name, fn as never, timeout)) as typeof it;
  return Object.assign(wrapped, {
    skip(name: string) {
      it(`is skipped, with the reason, because the store lacks that capability: ${name}`, () => {
        const capability = /\[skipped: the store does not declare the capability (\w+)\]$/.exec(name)?.[1];
        expect(lacking).toContain(capability);
      });
    },
  });
}
