/** Stops the Chromium browser-global-setup.js started (one given from outside in CBK_TEST_CHROMIUM_WS is left alone). */
export default async function stopChromium() {
  const server = globalThis.cbkTestChromium;
  if (!server) return;
  delete globalThis.cbkTestChromium;
  delete process.env.CBK_TEST_CHROMIUM_WS;
  await server.close();
}
