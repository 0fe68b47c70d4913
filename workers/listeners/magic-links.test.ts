import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { issueMagicToken } from "./magic-links";
import { currentCredentials, feedTokenOf, magicOf, readOutbox, subscribeVia, waitForOutbox } from "../../test/support/listeners";

const exchange = (magic: unknown, path = "/v1/auth/listener-magic-link/exchange") => call(path, jsonBody("POST", magic === undefined ? {} : { magic }));
const adminExchange = (magic: unknown) => exchange(magic, "/v1/admin/auth/magic-link/exchange");

describe("listener magic link (docs/rules.md 3, 4, 7)", () => {
  it("answers the same whether or not the e-mail is subscribed, and mails only a subscriber", async () => {
    await subscribeVia("known@example.test");
    const unknown = await call("/v1/auth/listener-magic-link", jsonBody("POST", { email: "nobody@example.test" }));
    const known = await call("/v1/auth/listener-magic-link", jsonBody("POST", { email: "known@example.test" }));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await known.text()).toBe(await unknown.text());
    const [mail] = await waitForOutbox(1);
    expect(mail.to).toBe("known@example.test");
    expect(mail.text).toContain(`${testVars.WEB_URL}/magic?magic=`);
    expect(mail.html).toContain("<a href=");
    expect((await readOutbox()).length).toBe(1);
    // No secret was issued for the unknown address (its request was handled first).
    const secrets = await env.DB.prepare("select email from magic_tokens").all<{ email: string }>();
    expect(secrets.results).toEqual([{ email: "known@example.test" }]);
  });

  it("exchanges once for the tokens, the e-mail and the private feed URL; then 410", async () => {
    const sub = await subscribeVia("ex@example.test");
    await call("/v1/auth/listener-magic-link", jsonBody("POST", { email: "ex@example.test" }));
    const magic = magicOf((await waitForOutbox(1))[0]);
    const res = await exchange(magic);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    // The first exchange proved the address: the credentials are the fresh ones, not the subscribe's.
    const now = await currentCredentials("ex@example.test");
    expect(now.token).not.toBe(sub.token);
    expect(body).toEqual({ token: now.token, feed_token: feedTokenOf(now.feed_url), email: "ex@example.test", feed_url: now.feed_url });
    expect((await exchange(magic)).status).toBe(410);
    const row = await env.DB.prepare("select used_at from magic_tokens").first<{ used_at: number | null }>();
    expect(row?.used_at).not.toBeNull();
  });

  it("redeems a secret once under concurrent exchanges", async () => {
    await subscribeVia("con@example.test");
    await call("/v1/auth/listener-magic-link", jsonBody("POST", { email: "con@example.test" }));
    const magic = magicOf((await waitForOutbox(1))[0]);
    const statuses = await Promise.all([1, 2, 3].map(async () => (await exchange(magic)).status));
    expect(statuses.sort()).toEqual([200, 410, 410]);
  });

  it("answers 410 for an expired secret, 404 for an unknown one, 400 without magic", async () => {
    await subscribeVia("exp@example.test");
    const listener = await env.DB.prepare("select id from listeners").first<{ id: number }>();
    const secret = await issueMagicToken(env, "listener", "exp@example.test", listener!.id);
    await env.DB.prepare("update magic_tokens set expires_at = ?")
      .bind(Date.now() - 1)
      .run();
    expect((await exchange(secret)).status).toBe(410);
    expect((await exchange("no-such-secret")).status).toBe(404);
    expect((await exchange(undefined)).status).toBe(400);
    expect((await exchange("")).status).toBe(400);
  });

  it("does not accept an admin secret (404)", async () => {
    const secret = await issueMagicToken(env, "admin", "admin@example.test", null);
    expect((await exchange(secret)).status).toBe(404);
  });

  it("expires secrets after 15 minutes", async () => {
    const before = Date.now();
    await issueMagicToken(env, "admin", "admin@example.test", null);
    const row = await env.DB.prepare("select expires_at from magic_tokens").first<{ expires_at: number }>();
    // docs/listeners.md: a magic link is valid 15 minutes.
    const fifteenMinutes = 15 * 60 * 1000;
    expect(row!.expires_at - before).toBeGreaterThanOrEqual(fifteenMinutes);
    expect(row!.expires_at - before).toBeLessThan(fifteenMinutes + 5000);
  });
});

describe("admin magic link", () => {
  it("answers the same for any address and mails only an allowlisted one", async () => {
    const allowed = await call("/v1/admin/auth/magic-link/request", jsonBody("POST", { email: "OPS@example.test" }));
    const other = await call("/v1/admin/auth/magic-link/request", jsonBody("POST", { email: "intruder@example.test" }));
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toBe(await other.text());
    const [mail] = await waitForOutbox(1);
    expect(mail.to).toBe("ops@example.test");
    expect(mail.text).toContain(`${testVars.WEB_URL}/magic?scope=admin&magic=`);
    expect((await readOutbox()).length).toBe(1);

    const res = await adminExchange(magicOf(mail));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ token: testVars.ADMIN_TOKEN, header: "x-service-email-token" });
    expect((await adminExchange(magicOf(mail))).status).toBe(410);
  });

  it("answers 410 for expired, wrong-scope and unknown secrets alike, and 400 without magic", async () => {
    const expired = await issueMagicToken(env, "admin", "admin@example.test", null);
    await env.DB.prepare("update magic_tokens set expires_at = ?")
      .bind(Date.now() - 1)
      .run();
    await subscribeVia("scope@example.test");
    const listenerSecret = await issueMagicToken(env, "listener", "scope@example.test", null);
    expect((await adminExchange(expired)).status).toBe(410);
    expect((await adminExchange(listenerSecret)).status).toBe(410);
    expect((await adminExchange("no-such-secret")).status).toBe(410);
    expect((await adminExchange(undefined)).status).toBe(400);
  });
});
