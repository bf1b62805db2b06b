/** Stops the throwaway PostgreSQL cluster the global setup started (a TEST_DATABASE_URL given from outside is left alone). */
import { execFileSync } from 'node:child_process';
import { POSTGRES_SCRIPT } from './postgres-config.js';

export default async function stopPostgres() {
  const dir = process.env.CBK_TEST_PG_DIR;
  if (!dir) return;
  delete process.env.CBK_TEST_PG_DIR;
  delete process.env.TEST_DATABASE_URL;
  execFileSync('bash', [POSTGRES_SCRIPT, 'stop', dir], { stdio: 'ignore' });
}
