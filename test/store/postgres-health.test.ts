/**
 * PostgresStore's health probe on a standby (pg_is_in_recovery()), which the PostgreSQL tests cannot
 * start: a pool whose server says it is in recovery. The probe says IN_RECOVERY, rolls back and
 * gives its connection back (test/telemetry/health.pg.test.ts has the checks a real server can show).
 */
import { checkHealth } from 'crossborder-merchant-kit';
import { PostgresStore } from 'crossborder-merchant-kit/store';

function fakePool(state: { read_only: boolean; recovery: boolean }) {
  const sent: string[] = [];
  let released = 0;
  const client = {
    query: async (text: string) => {
      sent.push(String(text));
      return { rows: /transaction_read_only/.test(String(text)) ? [state] : [], rowCount: 0 };
    },
    release: () => { released++; },
  };
  return { pool: { query: async () => ({ rows: [], rowCount: 0 }), connect: async () => client }, sent, released: () => released };
}

test.each([[{ read_only: false, recovery: true }, 'IN_RECOVERY'], [{ read_only: true, recovery: false }, 'READ_ONLY']])(
  'a server reporting %j: %s, rolled back, the client given back', async (state, code) => {
    const { pool, sent, released } = fakePool(state);
    const report = await checkHealth({ store: new PostgresStore({ pool, autoMigrate: false }), timeoutMs: 1000 });
    expect(report.store).toMatchObject({ ok: false, error: code, detail: expect.any(String) });
    expect(sent[0]).toMatch(/^BEGIN; SET LOCAL statement_timeout = '1000ms'; SET LOCAL lock_timeout = '1000ms'$/);
    expect(sent.at(-1)).toBe('ROLLBACK');
    expect(released()).toBe(1);
  });
