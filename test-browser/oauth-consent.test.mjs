// A real browser through the OAuth consent page (issue 13): Debian's Chromium, driven by
// playwright-core, signs a listener in with the magic link from the local outbox and allows an
// agent; the agent (oauth4webapi) then exchanges the code. Runs outside the workerd test projects,
// against the platform under wrangler dev: `npm run test:browser` (PORT moves it, default 8803).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import * as oauth from "oauth4webapi";
import { chromium } from "playwright-core";
import { ensureDevVars, migrate, startDev } from "../scripts/local.mjs";
import { expectAccessible } from "./support/axe.mjs";
import { json, mailTo } from "./support/outbox.mjs";

const PORT = Number(process.env.PORT ?? 8803);
const STATE = ".wrangler/browser-test-state";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Headless in a container: no sandbox, GPU or background traffic (the machine has no internet).
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
// http on loopback only: the whole platform runs on 127.0.0.1 (oauth4webapi otherwise insists on https).
const insecure = { [oauth.allowInsecureRequests]: true };

let platform;
let browser;
let agentApp;

/** The agent's loopback redirect listener (RFC 8252 §7.3); each request is handed to `onCallback`. */
function startAgentApp() {
  let onCallback = () => {};
  const server = createServer((req, res) => {
    const url = new URL(req.url, `http://127.0.0.1:${server.address().port}`);
    if (url.pathname === "/framer") {
      res.setHeader("Content-Type", "text/html");
      res.end(`<!doctype html><iframe id="f" src="${url.searchParams.get("src")}" width="600" height="400"></iframe>`);
      return;
    }
    res.setHeader("Content-Type", "text/plain");
    res.end("You can close this window.");
    onCallback(url);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const origin = `http://127.0.0.1:${server.address().port}`;
      resolve({ server, origin, callbacks: () => new Promise((r) => (onCallback = r)) });
    }),
  );
}

before(async () => {
  ensureDevVars();
  rmSync(STATE, { recursive: true, force: true });
  migrate(STATE);
  const base = `http://127.0.0.1:${PORT}`;
  platform = await startDev({ port: PORT, persistTo: STATE, quiet: true, vars: { BASE_URL: base, WEB_URL: base, MAIL_OUTBOX: "true" } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  agentApp = await startAgentApp();
});

after(async () => {
  await browser?.close();
  agentApp?.server.close();
  platform?.child.kill();
});

/** Discovery and registration as an MCP client does them, for a client named `name`. */
async function registeredAgent(name) {
  const issuer = new URL(platform.base);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
  const redirectUri = `${agentApp.origin}/callback`;
  const client = await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { client_name: name, redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }, insecure),
  );
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  for (const [k, v] of Object.entries({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "articles:read subscriptions:write",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  })) url.searchParams.set(k, v);
  return { as, client, redirectUri, verifier, state, url };
}

test("a listener signs in by magic link on the consent page and allows an agent", async () => {
  const email = "browser@example.test";
  const { token } = await json(
    await fetch(`${platform.base}/v1/listeners/subscribe`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, verticals: [] }) }),
  );
  const agent = await registeredAgent("Browser Test Agent");
  const page = await (await browser.newContext()).newPage();

  await page.goto(agent.url.href);
  await expectAccessible(page, "/oauth/authorize (sign-in)");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Mail me a sign-in link" }).click();
  await page.getByText("a sign-in link is on its way").waitFor();

  const mail = await mailTo(platform.base, email);
  const link = /http:\/\/127\.0\.0\.1:\d+\/sign-in\/confirm\?\S+/.exec(mail.text)[0];
  await page.goto(link);
  await page.getByRole("button", { name: "Continue signing in" }).click();

  await page.getByText("Browser Test Agent asks to act for you").waitFor();
  await expectAccessible(page, "/oauth/authorize (consent)");
  assert.ok(await page.getByText("Search and read articles, and get their audio, as you").isVisible());
  assert.ok(await page.getByText("Subscribe you to topics").isVisible());
  assert.ok(await page.getByText(`Signed in as ${email}`).isVisible());
  const callback = agentApp.callbacks();
  await page.getByRole("button", { name: "Allow" }).click();
  const back = await callback;

  const params = oauth.validateAuthResponse(agent.as, agent.client, back, agent.state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    agent.as,
    agent.client,
    await oauth.authorizationCodeGrantRequest(agent.as, agent.client, oauth.None(), params, agent.redirectUri, agent.verifier, insecure),
  );
  assert.equal(tokens.scope, "articles:read subscriptions:write");
  const { agents } = await json(await fetch(`${platform.base}/v1/listeners/${token}/agents`));
  assert.deepEqual(
    agents.map((a) => [a.client_id, a.client_name, a.scopes]),
    [[agent.client.client_id, "Browser Test Agent", ["articles:read", "subscriptions:write"]]],
  );
});

test("the consent page refuses to render inside another site's frame", async () => {
  const agent = await registeredAgent("Framed Agent");
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${agentApp.origin}/framer?src=${encodeURIComponent(agent.url.href)}`);
  const frame = await (await page.waitForSelector("#f")).contentFrame();
  await frame.waitForLoadState();
  // Chromium blocks the framed page (CSP frame-ancestors 'none'): the frame holds no sign-in form.
  assert.equal(await frame.locator("input[type=email]").count(), 0);
  // The same page loads fine on its own.
  await page.goto(agent.url.href);
  assert.equal(await page.locator("input[type=email]").count(), 1);
});
