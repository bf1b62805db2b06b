/** jest's global setup (jest.config.js): the throwaway PostgreSQL (postgres-global-setup.js) and the shared Chromium (browser-global-setup.js), each when its tests run. */
import { postgresAvailable } from './postgres-config.js';
import startPostgres from './postgres-global-setup.js';
import startChromium from './browser-global-setup.js';

export default async function globalSetup(globalConfig, projectConfig) {
  if (postgresAvailable()) await startPostgres(globalConfig, projectConfig);
  await startChromium(globalConfig, projectConfig);
}
