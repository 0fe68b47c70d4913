import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { probeAudio } from "../../../test/support/audio-probe";
import { adminHeaders, call, jsonBody } from "../../../test/support/client";
import { addArticle, addListener } from "../../../test/support/articles";
import { keyOfCapability } from "../../kernel/audio-capability";
import { renderService } from "../../kernel/render-contract";
import type { Caller } from "../caller";
import { invoke } from "../call";
import { get_audio_url } from "../tools";
import { SPONSOR_TEXT } from "./sponsor";

/**
 * The free plan's sponsor pre-roll (issue 12), with real renders from the render Worker: joined at
 * MP3 frame boundaries, stored with its exact size, as loud as the article.
 */

async function narratedArticle(slug: string) {
  const rendered = await renderService(env).render({ text: `A story about ${slug}. The river rose all night and the town watched it from the bridge.` });
  const article = await addArticle({ slug, audioKey: rendered.key, listenSeconds: Math.round(rendered.duration_seconds) });
  await env.DB.prepare("insert into render_jobs (id, article_id, state, audio_key) values (?, ?, 'done', ?)")
    .bind(`job-${slug}`, article.id, rendered.key)
    .run();
  return { article, rendered };
}

const acting = (listenerId: number, over: Partial<Caller> = {}): Caller => ({
  agentKey: "oauth:p",
  listenerId,
  scopes: ["articles:read"],
  paid: false,
  requestId: null,
  ...over,
});

describe("sponsor pre-roll", () => {
  it("gives a free-plan listener the article after the pre-roll: one MP3, exact size, same loudness", async () => {
    const { rendered } = await narratedArticle("river");
    const { listener } = await addListener();
    const out = await invoke(get_audio_url, { slug: "river" }, acting(listener.id), env);
    expect(out).toMatchObject({ state: "ready", sponsored: true, opus_url: null });
    expect(out.audio_url).not.toContain(rendered.key);

    const res = await call(new URL(out.audio_url!).pathname);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const row = await env.DB.prepare("select mp3_bytes, duration_seconds from audio_objects where key = ?")
      .bind(keyOfCapability(env, new URL(out.audio_url!).pathname.split("/").pop()!.replace(".mp3", "")))
      .first<{ mp3_bytes: number; duration_seconds: number }>();
    expect(row!.mp3_bytes).toBe(bytes.length);

    const preroll = await renderService(env).render({ text: SPONSOR_TEXT });
    const [joined, alone] = await Promise.all([probeAudio(bytes, "mp3"), probeAudio(await (await call(`/v1/audio/${rendered.key}.mp3`)).arrayBuffer(), "mp3")]);
    expect(joined.codec).toBe("mp3");
    expect(joined.duration).toBeCloseTo(preroll.duration_seconds + rendered.duration_seconds, 0);
    expect(Math.abs(joined.integrated_lufs - alone.integrated_lufs)).toBeLessThan(1);
    // The joined file says what the article's file says: the voice is synthetic (docs/narration.md "Marked as synthetic").
    expect(joined.tags["AI-generated narration"]).toMatch(/^synthetic voice \(/);
    expect(joined.tags).toMatchObject(alone.tags);

    // Built once: a repeat answers the same object.
    expect((await invoke(get_audio_url, { slug: "river" }, acting(listener.id), env)).audio_url).toBe(out.audio_url);
  }, 30_000); // three renders and two ffmpeg probes: seconds on a loaded machine

  it("gives plus and pro listeners and paying callers the bare audio", async () => {
    const { rendered } = await narratedArticle("bridge");
    const { listener, token } = await addListener();
    const paid = await invoke(get_audio_url, { slug: "bridge" }, acting(listener.id, { paid: true }), env);
    expect(paid).toMatchObject({ sponsored: false, audio_url: `${env.BASE_URL}/v1/audio/${rendered.key}.mp3` });

    for (const plan of ["plus", "pro"]) {
      const set = await call(`/v1/admin/listeners/${token}/plan`, jsonBody("PUT", { plan }, adminHeaders));
      expect(set.status).toBe(200);
      expect(await set.json()).toEqual({ plan });
      const out = await invoke(get_audio_url, { slug: "bridge" }, acting(listener.id), env);
      expect(out).toMatchObject({ sponsored: false, audio_url: `${env.BASE_URL}/v1/audio/${rendered.key}.mp3` });
    }
  }, 30_000);
});

describe("PUT /v1/admin/listeners/{token}/plan", () => {
  it("needs the admin token, a known listener and a known plan", async () => {
    const { token } = await addListener();
    expect((await call(`/v1/admin/listeners/${token}/plan`, jsonBody("PUT", { plan: "plus" }))).status).toBe(401);
    expect((await call(`/v1/admin/listeners/nobody/plan`, jsonBody("PUT", { plan: "plus" }, adminHeaders))).status).toBe(404);
    const bad = await call(`/v1/admin/listeners/${token}/plan`, jsonBody("PUT", { plan: "gold" }, adminHeaders));
    expect(bad.status).toBe(422);
    expect((await bad.json<{ detail: { loc: string[] }[] }>()).detail[0].loc).toEqual(["body", "plan"]);
    const row = await env.DB.prepare("select plan from listeners where token_hash is not null limit 1").first<{ plan: string }>();
    expect(row!.plan).toBe("free");
  });
});
