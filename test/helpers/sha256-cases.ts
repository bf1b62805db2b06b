/**
 * The SHA-256 helpers of lib/shared/sha256.ts against published digests (FIPS 180-2's "abc", the
 * empty input) and a non-ASCII text, both forms: run on the native one-shot path
 * (test/shared/sha256.test.ts) and on the createHash fallback (test/shared/sha256-fallback.test.ts).
 */
const CASES: ReadonlyArray<readonly [string, string]> = [
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ['s3cret-Ünïcode-✓', 'd82b6bade92de4e5bd48875d9ae8e9141e14c0ff55a2560e30e07702da380d92'],
];

export function sha256Cases(sha256: (s: string) => Buffer, sha256Hex: (bytes: Uint8Array) => string): void {
  test.each(CASES)('sha256(%j) is the 32-byte digest of its UTF-8 bytes', (text, hex) => {
    const d = sha256(text);
    expect(Buffer.isBuffer(d)).toBe(true);
    expect(d.toString('hex')).toBe(hex);
  });
  test.each(CASES)('sha256Hex of the UTF-8 bytes of %j is the lowercase hex digest', (text, hex) => {
    expect(sha256Hex(Buffer.from(text, 'utf8'))).toBe(hex);
    expect(sha256Hex(new Uint8Array(Buffer.from(text, 'utf8')))).toBe(hex);
  });
}
