import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { signWebhook } from "../core/auth";

/**
 * The signature's 300 s tolerance leaves a window in which a captured delivery verifies again
 * (routes/post.webhook.publish.ts): an older delivery must not bring back the version a newer one replaced.
 */

const SLUG = "harbour-dredging-plan";

function version(title: string, body: string) {
  return JSON.stringify({ slug: SLUG, title, publisher: "Harbour Gazette", vertical: "science", body_text: body, summary: "The plan." });
}

/** A delivery as it travels: its exact bytes and its signature, signed `agoSeconds` before `now`. */
async function delivery(raw: string, agoSeconds: number, now = Date.now()) {
  const signature = await signWebhook(testVars.PUBLISH_WEBHOOK_SECRET, new TextEncoder().encode(raw), now - agoSeconds * 1000);
  return () => call("/v1/webhook/publish", { method: "POST", body: raw, headers: { "content-type": "application/json", "x-legacy-signature": signature } });
}

async function stored() {
  return env.DB.prepare("SELECT title, body_text FROM articles WHERE slug = ?").bind(SLUG).first<{ title: string; body_text: string }>();
}

describe("a captured publish delivery replayed within the signature's tolerance", () => {
  it("cannot bring back the version a newer delivery replaced", async () => {
    const first = await delivery(version("Dredging plan approved", "The council approved the plan."), 120);
    const correction = await delivery(version("Dredging plan withdrawn", "The council withdrew the plan."), 60);
    expect((await first()).status).toBe(200);
    expect((await correction()).status).toBe(200);

    const replay = await first();
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ code: "conflict" });
    expect(await stored()).toEqual({ title: "Dredging plan withdrawn", body_text: "The council withdrew the plan." });
    const jobs = await env.DB.prepare("SELECT count(*) AS n FROM render_jobs").first<{ n: number }>();
    expect(jobs!.n).toBe(2);
  });

  it("cannot bring back the version a newer delivery signed in the same second replaced (issue 40 item 9: ties do not win)", async () => {
    // Both signed at one instant, so in one second whenever the test runs.
    const now = Date.now();
    const first = await delivery(version("Dredging plan approved", "The council approved the plan."), 0, now);
    const correction = await delivery(version("Dredging plan withdrawn", "The council withdrew the plan."), 0, now);
    expect((await first()).status).toBe(200);
    expect((await correction()).status).toBe(200);

    const replay = await first();
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ code: "conflict" });
    // The applied version, resent (a sender's retry), changes nothing and is no error.
    expect(await (await correction()).json()).toMatchObject({ created: false, job_id: null });
    expect(await stored()).toEqual({ title: "Dredging plan withdrawn", body_text: "The council withdrew the plan." });
    const jobs = await env.DB.prepare("SELECT count(*) AS n FROM render_jobs").first<{ n: number }>();
    expect(jobs!.n).toBe(2);
  });

  it("still applies deliveries in order, and two signed in the same second in the order they arrive", async () => {
    expect((await (await delivery(version("One", "First text."), 30))()).status).toBe(200);
    expect((await (await delivery(version("Two", "Second text."), 0))()).status).toBe(200);
    expect((await (await delivery(version("Three", "Third text."), 0))()).status).toBe(200);
    expect(await stored()).toEqual({ title: "Three", body_text: "Third text." });
  });
});
