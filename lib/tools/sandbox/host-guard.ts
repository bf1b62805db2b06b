/**
 * Who may talk to the sandbox: it listens on loopback unless the developer asks otherwise
 * (`allowRemote`), and every request — console, its event stream, the service API, a 404 — must name
 * the sandbox by a Host an attacker's DNS cannot rebind: `localhost`, `*.localhost`, an IP literal,
 * or a name the developer listed in `allowedHosts`.
 */
import { isIP } from 'node:net';

/** True for 127.0.0.0/8, ::1 and `localhost`: addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The hostname of a Host header (lower case, no port, no brackets); undefined when it is not one. */
export function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return undefined;
  }
}

/** localhost, *.localhost, an IP literal or one of `allowed`: a name an attacker's DNS cannot rebind. */
export function trustedHost(hostHeader: string | undefined, allowed: readonly string[] = []): boolean {
  const name = hostnameOf(hostHeader);
  if (name === undefined || name === '') return false;
  return name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || allowed.includes(name);
}
