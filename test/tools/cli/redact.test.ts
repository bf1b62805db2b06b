/**
 * The command never echoes a credential (issue 47 item 2): a connection string given without its
 * flag (`migrate "postgresql://deploy:PW@…"`), as a misspelt flag's value, as another flag's value or
 * as the command's name; a MerchantGUID, a token or a header's credentials — in every argument
 * position of every command, whatever error it causes. What it writes passes through the logs'
 * redaction (lib/tools/cli/redact.ts), so the password is masked in every spelling (as written in the
 * URL, decoded, JSON-escaped …). Every case fails before anything listens or connects (a trailing
 * invalid flag where the command would otherwise start), except migrate, whose connection to a closed
 * loopback port is refused.
 */
import { main } from '../../../lib/tools/cli/main.js';
import { cliSecrets } from '../../../lib/tools/cli/redact.js';

const PASSWORD = 'Pw/s3cr3t@x"y';
const URL_SECRET = `postgresql://deploy:${encodeURIComponent(PASSWORD)}@db.internal:5432/app`;
const GUID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const TOKEN = 'tok-Zx81-secret-QQ';

/** Every spelling of the secrets a reader could recover. */
const LEAKS = [URL_SECRET, PASSWORD, encodeURIComponent(PASSWORD), JSON.stringify(PASSWORD).slice(1, -1), 'deploy:', TOKEN, GUID, GUID.replace(/-/g, '')];
const leaked = (text: string) => LEAKS.filter((s) => text.toLowerCase().includes(s.toLowerCase()));

async function run(argv: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const controller = new AbortController();
  controller.abort();
  const code = await main(argv, { stdout: (t) => { out += t; }, stderr: (t) => { err += t; }, signal: controller.signal, env });
  return { code, out, err };
}

/** Each command, the flags it knows, and a tail that makes it fail with a usage error before it starts anything. */
const COMMANDS: Record<string, { flags: string[]; tail: string[] }> = {
  sandbox: { flags: ['port', 'host', 'merchant-url', 'guid', 'paths', 'data', 'access-token', 'latency-ms', 'documents-delay-ms', 'cart-token', 'header', 'timeout-ms', 'allowed-host', 'jwt-ttl-ms'], tail: ['--jwt-ttl-ms', 'never'] },
  trigger: { flags: ['merchant-url', 'guid', 'paths', 'cart-token', 'header', 'timeout-ms', 'sandbox'], tail: ['--timeout-ms', 'never'] },
  check: { flags: ['guid', 'paths', 'cart-token', 'header', 'timeout-ms', 'junit', 'only', 'callbacks', 'sandbox'], tail: ['--timeout-ms', 'never'] },
  migrate: { flags: ['database-url', 'schema', 'lock-timeout-ms'], tail: ['--lock-timeout-ms', 'never'] },
};
const SECRETS = { 'a connection string': URL_SECRET, 'a header with a token': `Authorization Bearer ${TOKEN}`, 'a MerchantGUID': GUID };

const cases: [string, string[]][] = [];
for (const [command, { flags, tail }] of Object.entries(COMMANDS)) {
  for (const [what, secret] of Object.entries(SECRETS)) {
    cases.push([`${command}: ${what} as the first argument, without its flag`, [command, secret, ...tail]]);
    cases.push([`${command}: ${what} as the last argument, without its flag`, [command, ...tail, secret]]);
    cases.push([`${command}: ${what} after --`, [command, ...tail, '--', secret]]);
    cases.push([`${command}: ${what} as a misspelt flag's value`, [command, '--databse-url', secret, ...tail]]);
    cases.push([`${command}: ${what} as a misspelt flag's =value`, [command, `--databse-url=${secret}`, ...tail]]);
    for (const flag of flags) {
      cases.push([`${command}: ${what} as --${flag}`, [command, `--${flag}`, secret, ...tail]]);
      cases.push([`${command}: ${what} as --${flag}=`, [command, `--${flag}=${secret}`, ...tail]]);
    }
  }
}
for (const [what, secret] of Object.entries(SECRETS)) cases.push([`${what} as the command`, [secret]]);

describe('no credential in anything the command writes', () => {
  test.each(cases)('%s', async (_what, argv) => {
    const { code, out, err } = await run(argv);
    expect(code).not.toBe(0);
    expect(err).not.toBe('');
    expect(leaked(err)).toEqual([]);
    // stdout may show the GUID the command uses (the sandbox's banner), never another credential
    expect(leaked(out).filter((s) => !s.includes(GUID.slice(0, 8)) && s !== GUID.replace(/-/g, ''))).toEqual([]);
  });

  test('the issue\'s case: migrate with the URL without its flag says what to do and shows nothing of it', async () => {
    const { code, err } = await run(['migrate', URL_SECRET]);
    expect(code).toBe(2);
    expect(err).toMatch(/^crossborder-merchant-kit migrate: unexpected argument at position 1 after the command \(not shown: it may hold a credential\); this command takes flags only; a database URL goes after --database-url\n/);
    expect(leaked(err)).toEqual([]);
  });

  test('$DATABASE_URL is masked in migrate\'s failure (a refused connection on loopback)', async () => {
    const url = `postgresql://deploy:${encodeURIComponent(PASSWORD)}@127.0.0.1:1/app`;
    const { code, err } = await run(['migrate', '--lock-timeout-ms', '50'], { DATABASE_URL: url });
    expect(code).toBe(1);
    expect(err).toMatch(/^crossborder-merchant-kit migrate: /);
    expect(err).not.toContain(url);
    expect(leaked(err)).toEqual([]);
  });

  test('a usage error still names what is wrong, without the value', async () => {
    expect((await run(['migrate', '--lock-timeout-ms', 'soon'], { DATABASE_URL: URL_SECRET })).err).toMatch(/--lock-timeout-ms must be an integer >= 1\n/);
    expect((await run(['trigger', 'ordr', '--merchant-url', 'http://127.0.0.1:1'])).err).toMatch(/unknown scenario; did you mean "order"\?/);
    expect((await run(['migrate', '--databse-url', 'x'])).err).toMatch(/Unknown option '--databse-url'; did you mean "--database-url"\?/);
  });
});

describe('cliSecrets', () => {
  test('flag values, URLs with credentials in any argument, keyword passwords, $DATABASE_URL', () => {
    const { guids, others } = cliSecrets([
      '--guid', GUID, '--header', 'Authorization: Basic dXNlcjpwYXNz', '--cart-token=ct-123', 'host=db password=\'p w\'', 'http://u:p%40ss@h/x', '--port', '4010',
    ], { DATABASE_URL: 'postgres://a:b%2Fc@h/d' });
    expect(guids).toEqual([GUID]);
    expect(others).toEqual(expect.arrayContaining([
      'Authorization: Basic dXNlcjpwYXNz', 'Basic dXNlcjpwYXNz', 'dXNlcjpwYXNz', 'ct-123', "'p w'", 'p w', 'http://u:p%40ss@h/x', 'u:p%40ss', 'p%40ss', 'p@ss',
      'postgres://a:b%2Fc@h/d', 'b%2Fc', 'b/c',
    ]));
    expect(others).not.toContain('4010');
  });
});
