import { createServer } from "node:http";
import { after, before } from "node:test";
import { launchBrowser } from "../../scripts/browser.mjs";

/**
 * A page served on loopback to a real browser, for a test file that needs no platform: before its
 * tests, `prepare()` (which may bundle a module) gives the request handler, a server on a free port
 * answers with it, and a browser starts; after them both close. The returned object's `base` and
 * `browser` are set once the tests run.
 */
export function servedToBrowser(prepare) {
  const at = { base: "", browser: null };
  let server;
  before(async () => {
    const handle = await prepare();
    server = createServer(handle);
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    at.base = `http://127.0.0.1:${server.address().port}`;
    at.browser = await launchBrowser();
  });
  after(async () => {
    await at.browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });
  return at;
}
