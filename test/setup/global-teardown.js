/** jest's global teardown (jest.config.js): stops what global-setup.js started. */
import stopPostgres from './postgres-global-teardown.js';
import stopChromium from './browser-global-teardown.js';

export default async function globalTeardown(globalConfig, projectConfig) {
  try {
    await stopChromium(globalConfig, projectConfig);
  } finally {
    await stopPostgres(globalConfig, projectConfig);
  }
}
