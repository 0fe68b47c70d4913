import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { feedTokenOf, readOutbox, subscribeVia, waitForOutbox } from "../../test/support/listeners";
import { testVars } from "../../test/vars";

/**
 * DESIGN.md "Deviations from SPEC.md made for safety": subscribe hands an existing account's token
 * back only within SUBSCRIBE_IDEMPOTENCY_SECONDS of its creation. Time is moved by ageing the row.
 */
const WINDOW_MS = Number(testVars.SUBSCRIBE_IDEMPOTENCY_SECONDS) * 1000;

async function ageSubscription(email: string, ageMs: number): Promise<void> {
  await env.DB.prepare("update listeners set created_at = cast(unixepoch('subsecond') * 1000 as integer) - ? where email = ?").bind(ageMs, email).run();
}

function attackerSubscribes(email: string, verticals: string[]) {
  return call("/v1/listeners/subscribe", { ...jsonBody("POST", { email, verticals }), ip: "198.51.100.66" });
}

describe("subscribe with someone else's address (account takeover)", () => {
  it("past the window, gives the attacker no token and no feed URL, changes nothing, and mails the owner", async () => {
    const victim = await subscribeVia("victim@example.test", ["tech"]);
    await ageSubscription("victim@example.test", WINDOW_MS + 1000);

    const res = await attackerSubscribes("Victim@Example.test", ["sports", "finance"]);
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ email: "victim@example.test", already_registered: true });
    expect(text).not.toContain(victim.token);
    expect(text).not.toContain(feedTokenOf(victim.feed_url));

    const prefs = await call(`/v1/listeners/${victim.token}`);
    expect(prefs.status).toBe(200);
    expect(await prefs.json()).toMatchObject({ email: "victim@example.test", verticals: ["tech"] });
    expect((await call(`/v1/podcasts/u/${feedTokenOf(victim.feed_url)}.xml`)).status).toBe(200);

    const [mail] = await waitForOutbox(1);
    expect(mail.to).toBe("victim@example.test");
    expect(mail.subject).toBe("Your sign-in link");
  });

  it("past the window, gives nothing to rotate with, so the owner keeps the account", async () => {
    const victim = await subscribeVia("locked@example.test");
    await ageSubscription("locked@example.test", WINDOW_MS + 1000);
    const stolen = (await (await attackerSubscribes("locked@example.test", [])).json()) as { token?: string };
    if (stolen.token) await call(`/v1/listeners/${stolen.token}/rotate`, { method: "POST", ip: "198.51.100.66" });
    expect(stolen.token).toBeUndefined();
    expect((await call(`/v1/listeners/${victim.token}`)).status).toBe(200);
  });

  it("within the window, returns the same token and feed URL to a repeat (double submit, retry)", async () => {
    const first = await subscribeVia("retry@example.test", ["tech"]);
    await ageSubscription("retry@example.test", WINDOW_MS - 5000);
    const again = await subscribeVia("retry@example.test", ["tech"]);
    expect(again).toMatchObject({ token: first.token, feed_url: first.feed_url, already_subscribed: true, already_registered: false });
    expect(await readOutbox()).toEqual([]);
  });

  it("gives concurrent subscribes of a new address one account and one token", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => subscribeVia("burst@example.test", ["science"])));
    expect(new Set(answers.map((a) => a.token)).size).toBe(1);
    expect(new Set(answers.map((a) => a.feed_url)).size).toBe(1);
    expect(answers.filter((a) => !a.already_subscribed)).toHaveLength(1);
    expect((await env.DB.prepare("select count(*) as n from listeners where email = 'burst@example.test'").first<{ n: number }>())?.n).toBe(1);
  });
});

describe("the deviation in /openapi.json", () => {
  it("says on the subscribe operation when the token comes back and why", async () => {
    const doc = (await (await call("/openapi.json")).json()) as { paths: Record<string, Record<string, { description?: string }>> };
    const { description } = doc.paths["/v1/listeners/subscribe"].post;
    expect(description).toContain("SUBSCRIBE_IDEMPOTENCY_SECONDS");
    expect(description).toContain("already_registered");
    expect(description).toMatch(/hand over the account/);
  });
});
