/** Strict base64 decoding, shared by the documents webhook and the client's shipping documents. */

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

/** Decodes well-formed base64 (standard or URL-safe, padded or not, whitespace ignored); null when malformed. */
export function decodeBase64(value: string): Buffer | null {
  const s = value.replace(/[\r\n\t ]/g, '');
  if (s === '' || (!STANDARD.test(s) && !URL_SAFE.test(s))) return null;
  const body = s.replace(/=+$/, '');
  if (body.length % 4 === 1) return null;
  if (body.length !== s.length && s.length % 4 !== 0) return null;
  return Buffer.from(body, URL_SAFE.test(s) && /[-_]/.test(s) ? 'base64url' : 'base64');
}
