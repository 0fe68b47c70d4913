import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminHeaders, call } from "../../test/support/client";
import worker from "../api";
import { addArticle } from "../../test/support/articles";
import { sendDailyDigest } from "./digest";
import { readOutbox, subscribeVia } from "../../test/support/listeners";

const HOUR = 3_600_000;

async function setLastDigest(email: string, at: number | null) {
  await env.DB.prepare("update listeners set last_digest_at = ? where email = ?").bind(at, email).run();
}

describe("daily digest (docs/rules.md 3, 6, 8)", () => {
  it("mails each active listener their best new articles with listen links and their feed link", async () => {
    const sub = await subscribeVia("digest@example.test", ["tech"]);
    const curated = await addArticle({ vertical: "tech", title: "Curated & chosen", curated: true, createdAt: new Date(Date.now() - 2 * HOUR) });
    await addArticle({ vertical: "tech", title: "Fresh" });
    await addArticle({ vertical: "sports", title: "Off topic" });
    const summary = await sendDailyDigest(env);
    expect(summary).toMatchObject({ mail_configured: true, sent: 1, skipped_recent: 0 });
    const [mail] = await readOutbox();
    expect(mail.to).toBe("digest@example.test");
    expect(mail.text.indexOf("Curated & chosen")).toBeLessThan(mail.text.indexOf("Fresh"));
    expect(mail.text).not.toContain("Off topic");
    expect(mail.text).toContain(`/articles/${curated.slug}`);
    expect(mail.text).toContain(sub.feed_url);
    expect(mail.html).toContain("Curated &amp; chosen");
    expect(mail.html).toContain(sub.feed_url);
  });

  it("skips silently a listener sent one under 20 hours ago, and sends again at 20 hours", async () => {
    // docs/rules.md 8, "Digest repeat guard: 20 hours per listener", stated here, not read from the code.
    const guard = 20 * HOUR;
    const now = Date.now();
    await subscribeVia("guard@example.test", ["tech"]);
    await addArticle({ vertical: "tech", createdAt: new Date(now - 2 * HOUR) });
    expect((await sendDailyDigest(env, now)).sent).toBe(1);
    expect(await sendDailyDigest(env, now)).toMatchObject({ sent: 0, skipped_recent: 1 });
    await setLastDigest("guard@example.test", now - guard + 1);
    expect(await sendDailyDigest(env, now)).toMatchObject({ sent: 0, skipped_recent: 1 });
    await setLastDigest("guard@example.test", now - guard);
    await addArticle({ vertical: "tech", createdAt: new Date(now - HOUR) });
    expect((await sendDailyDigest(env, now)).sent).toBe(1);
    expect(await readOutbox()).toHaveLength(2);
  });

  it("mails one digest per listener when two runs overlap", async () => {
    await subscribeVia("overlap@example.test", ["tech"]);
    await addArticle({ vertical: "tech" });
    const runs = await Promise.all([sendDailyDigest(env), sendDailyDigest(env)]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect(await readOutbox()).toHaveLength(1);
  });

  it("skips inactive listeners and listeners with nothing new", async () => {
    await subscribeVia("quiet@example.test", ["science"]);
    await subscribeVia("off@example.test", ["tech"]);
    await env.DB.prepare("update listeners set active = 0 where email = 'off@example.test'").run();
    await addArticle({ vertical: "tech" });
    expect(await sendDailyDigest(env)).toMatchObject({ considered: 1, sent: 0, skipped_empty: 1 });
    expect(await readOutbox()).toHaveLength(0);
  });

  it("sends nothing when mail is unconfigured", async () => {
    await subscribeVia("nomail@example.test", ["tech"]);
    await addArticle({ vertical: "tech" });
    expect(await sendDailyDigest({ ...env, MAIL_OUTBOX: "", RESEND_API_KEY: "" })).toMatchObject({ mail_configured: false, sent: 0 });
    const row = await env.DB.prepare("select last_digest_at from listeners").first<{ last_digest_at: number | null }>();
    expect(row!.last_digest_at).toBeNull();
  });

  it("runs from the cron trigger", async () => {
    await subscribeVia("cron@example.test", ["tech"]);
    await addArticle({ vertical: "tech" });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "0 7 * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await readOutbox()).map((m) => m.to)).toEqual(["cron@example.test"]);
  });

  it("runs from POST /v1/admin/digest/run with the admin token only", async () => {
    await subscribeVia("admin-run@example.test", ["tech"]);
    await addArticle({ vertical: "tech" });
    expect((await call("/v1/admin/digest/run", { method: "POST" })).status).toBe(401);
    const res = await call("/v1/admin/digest/run", { method: "POST", headers: adminHeaders });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ sent: 1 });
  });
});
