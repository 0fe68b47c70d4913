// A real browser through the OAuth consent page (issue 13): Debian's Chromium, driven by
// playwright-core, signs a listener in with the magic link from the local outbox and allows an
// agent; the agent (oauth4webapi) then exchanges the code. Runs outside the workerd test projects,
// against the platform under wrangler dev: `npm run test:browser` (PORT moves it, default 8803).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { rmSync } from "node:fs";
import { after, before, test } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import * as oauth from "oauth4webapi";
import { launchBrowser } from "../scripts/browser.mjs";
import { ensureDevVars, migrate, startDev } from "../scripts/local.mjs";
import { expectAccessible } from "./support/axe.mjs";
import { currentToken, json, mailTo } from "./support/outbox.mjs";

const PORT = Number(process.env.PORT ?? 8803);
const STATE = ".wrangler/browser-test-state";
// http on loopback only: the whole platform runs on 127.0.0.1 (oauth4webapi otherwise insists on https).
const insecure = { [oauth.allowInsecureRequests]: true };

let platform;
let browser;
let agentApp;

/**
 * The documents the agent's site serves at /documents/<name>.json: its Client ID Metadata Document, and the
 * ones an attacker would serve (a redirect, one too large, one too slow, one naming another client).
 */
function serveDocument(name, origin, res) {
  const doc = (clientId) =>
    JSON.stringify({ client_id: clientId, client_name: "Document Agent", redirect_uris: [`${origin}/callback`], token_endpoint_auth_method: "none" });
  const json = (body) => {
    res.setHeader("Content-Type", "application/json");
    res.end(body);
  };
  if (name === "client") return json(doc(`${origin}/documents/client.json`));
  if (name === "redirect") {
    res.writeHead(302, { Location: `${origin}/documents/client.json` });
    return res.end();
  }
  if (name === "large") return json(JSON.stringify({ ...JSON.parse(doc(`${origin}/documents/large.json`)), padding: "x".repeat(6000) }));
  if (name === "slow") return setTimeout(() => json(doc(`${origin}/documents/slow.json`)), 7000);
  if (name === "impostor") return json(doc("https://trusted.example/client.json"));
  res.statusCode = 404;
  res.end();
}

/** The agent's loopback redirect listener (RFC 8252 §7.3); each request is handed to `onCallback`. */
function startAgentApp() {
  let onCallback = () => {};
  const server = createServer((req, res) => {
    const url = new URL(req.url, `http://127.0.0.1:${server.address().port}`);
    const document = /^\/documents\/(\w+)\.json$/.exec(url.pathname);
    if (document) return serveDocument(document[1], url.origin, res);
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
  browser = await launchBrowser();
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
  }))
    url.searchParams.set(k, v);
  return { as, client, redirectUri, verifier, state, url };
}

/** `email` signs in on the authorization page at `url`, by the magic link from the outbox, in a new browser page. */
async function signInOnConsentPage(url, email) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url.href);
  await expectAccessible(page, "/oauth/authorize (sign-in)");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Mail me a sign-in link" }).click();
  await page.getByText("a sign-in link is on its way").waitFor();
  const mail = await mailTo(platform.base, email);
  await page.goto(/http:\/\/127\.0\.0\.1:\d+\/sign-in\/confirm\?\S+/.exec(mail.text)[0]);
  await page.getByRole("button", { name: "Continue signing in" }).click();
  return page;
}

/** The listener clicks Allow on `page`; the agent takes the redirect and exchanges the code (PKCE). */
async function allowAndExchange(page, agent) {
  const callback = agentApp.callbacks();
  await page.getByRole("button", { name: "Allow" }).click();
  const params = oauth.validateAuthResponse(agent.as, agent.client, await callback, agent.state);
  return oauth.processAuthorizationCodeResponse(
    agent.as,
    agent.client,
    await oauth.authorizationCodeGrantRequest(agent.as, agent.client, oauth.None(), params, agent.redirectUri, agent.verifier, insecure),
  );
}

test("a listener signs in by magic link on the consent page and allows an agent", async () => {
  const email = "browser@example.test";
  await json(
    await fetch(`${platform.base}/v1/listeners/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, verticals: [] }),
    }),
  );
  const agent = await registeredAgent("Browser Test Agent");
  const page = await signInOnConsentPage(agent.url, email);

  await page.getByText("Browser Test Agent asks to act for you").waitFor();
  await expectAccessible(page, "/oauth/authorize (consent)");
  assert.ok(await page.getByText("Search and read articles, and get their audio, as you").isVisible());
  assert.ok(await page.getByText("Subscribe you to topics").isVisible());
  assert.ok(await page.getByText(`Signed in as ${email}`).isVisible());
  const tokens = await allowAndExchange(page, agent);
  assert.equal(tokens.scope, "articles:read subscriptions:write");
  const token = await currentToken(platform.base, email);
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

/** An authorization request (PKCE S256) for the client `clientId`, which never registered. */
async function documentAgent(clientId, scope) {
  const issuer = new URL(platform.base);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
  const client = { client_id: clientId, token_endpoint_auth_method: "none" };
  const redirectUri = `${agentApp.origin}/callback`;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  const params = {
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { as, client, redirectUri, verifier, state, url };
}

test("an MCP client known only by its Client ID Metadata Document signs a listener in, is allowed, and calls a tool with its token", async () => {
  const email = "document@example.test";
  await json(
    await fetch(`${platform.base}/v1/listeners/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, verticals: [] }),
    }),
  );
  const clientId = `${agentApp.origin}/documents/client.json`;
  const agent = await documentAgent(clientId, "articles:read subscriptions:write");
  assert.equal(agent.as.client_id_metadata_document_supported, true);
  const page = await signInOnConsentPage(agent.url, email);

  // The name comes from the document, shown with the host that published it.
  await page.getByText("Document Agent (127.0.0.1:").waitFor();
  const host = new URL(agentApp.origin).host;
  assert.ok(await page.getByText(`Its name and addresses are published by ${host}`).isVisible());
  await expectAccessible(page, "/oauth/authorize (consent, metadata document client)");
  const tokens = await allowAndExchange(page, agent);
  assert.equal(tokens.scope, "articles:read subscriptions:write");

  // The MCP SDK client calls tools with the token, at /mcp as the Inspector would.
  const mcp = new Client({ name: "document-agent", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${platform.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } } }),
  );
  const subscribed = await mcp.callTool({ name: "subscribe_topic", arguments: { verticals: ["science"] } });
  assert.ok(!subscribed.isError, JSON.stringify(subscribed));
  const listed = await mcp.callTool({ name: "list_subscriptions", arguments: {} });
  assert.equal(listed.structuredContent.subscriptions[0].feed_url, subscribed.structuredContent.feed_url);
  await mcp.close();

  // The refresh token works against the stored document, and the listener sees the agent by its name.
  const refreshed = await oauth.processRefreshTokenResponse(
    agent.as,
    agent.client,
    await oauth.refreshTokenGrantRequest(agent.as, agent.client, oauth.None(), tokens.refresh_token, insecure),
  );
  assert.ok(refreshed.access_token);
  const token = await currentToken(platform.base, email);
  const { agents } = await json(await fetch(`${platform.base}/v1/listeners/${token}/agents`));
  assert.deepEqual(
    agents.map((a) => [a.client_id, a.client_name]),
    [[clientId, "Document Agent"]],
  );
});

test("a metadata document that redirects, is too large, too slow, or names another client is refused on the page", async () => {
  for (const [name, reason] of [
    ["redirect", "redirects"],
    ["large", "larger than 5120 bytes"],
    ["slow", "did not arrive within 5 s"],
    ["impostor", "client_id is not its own URL"],
    ["missing", "answered 404"],
  ]) {
    const agent = await documentAgent(`${agentApp.origin}/documents/${name}.json`, "articles:read");
    const res = await fetch(agent.url, { redirect: "manual" });
    assert.equal(res.status, 400, name);
    assert.equal(res.headers.get("location"), null, name);
    assert.match(await res.text(), new RegExp(`client metadata document cannot be used: .*${reason}`), name);
  }
});
