import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { probeAudio } from "../../test/support/audio-probe";
import { apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { pollJob, publishSigned as publish } from "../../test/support/publish";

// The whole path with the real render Worker (auxiliary Worker in vitest.config.ts): signed publish →
// render_jobs row → Queue → consumer → R2 → audio over HTTP, and the synchronous render cache.

/** The path of an absolute audio URL, fetched through the API Worker under test. */
async function fetchAudio(url: string, init: RequestInit = {}) {
  const res = await call(new URL(url).pathname, init);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("narration end to end, offline", () => {
  it("publish → job done → three valid encodings, a 206 range with the right bytes, listen_seconds from the real duration", async () => {
    const res = await publish({
      title: "Lanterns on the River",
      publisher: "Evening Post",
      vertical: "culture",
      body_text: "Every autumn the town floats paper lanterns down the river. Children write wishes on them.",
    });
    expect(res.status).toBe(200);
    const { slug, job_id } = await res.json<{ slug: string; job_id: string }>();
    const job = await pollJob(job_id);
    expect(job).toMatchObject({ state: "done", article_slug: slug, provider: expect.any(String) });

    const expected = { mp3: ["mp3", "audio/mpeg"], opus: ["opus", "audio/ogg; codecs=opus"], wav: ["pcm_s16le", "audio/wav"] } as const;
    const urls = { mp3: job.audio_url!, opus: job.opus_url!, wav: job.wav_url! };
    const durations: number[] = [];
    for (const [ext, [codec, type]] of Object.entries(expected)) {
      const { res: audio, bytes } = await fetchAudio(urls[ext as keyof typeof urls]);
      expect(audio.status).toBe(200);
      expect(audio.headers.get("content-type")).toBe(type);
      const info = await probeAudio(bytes, ext);
      expect(info.codec).toBe(codec);
      durations.push(info.duration);
    }
    for (const d of durations) expect(Math.abs(d - durations[0])).toBeLessThan(0.2);

    const { bytes: whole } = await fetchAudio(urls.mp3);
    const { res: ranged, bytes: part } = await fetchAudio(urls.mp3, { headers: { Range: "bytes=100-1099" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 100-1099/${whole.length}`);
    expect(part).toEqual(whole.slice(100, 1100));

    const audio = await (await call(`/v1/articles/${slug}/audio`)).json<{ state: string; listen_seconds: number }>();
    expect(audio.state).toBe("done");
    // The WAV is the master's own samples; the MP3 decodes up to 0.12 s longer (encoder delay and padding).
    expect(audio.listen_seconds).toBe(Math.round(durations[2]));
  });

  it("a second render of the same text is cached: same key, cached true, no new audio object", async () => {
    const body = jsonBody("POST", { text: "The same words, twice." }, apiKeyHeaders);
    const first = await (await call("/v1/render", body)).json<{ key: string; cached: boolean }>();
    expect(first.cached).toBe(false);
    const second = await (await call("/v1/render", jsonBody("POST", { text: "The same words, twice." }, apiKeyHeaders))).json();
    expect(second).toMatchObject({ key: first.key, cached: true });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM audio_objects").first("n")).toBe(1);
  });

  it("render-now: 202, the consumer releases the listener's slot when the job is done, then 200 with the audio", async () => {
    const { mintToken } = await import("../kernel/listener-tokens");
    const { token, hash, encrypted } = await mintToken(env);
    const listener = await env.DB.prepare("INSERT INTO listeners (email, token_hash, token_encrypted) VALUES ('e2e@example.test', ?, ?) RETURNING id")
      .bind(hash, encrypted)
      .first<{ id: number }>();
    const pub = await (await publish({ slug: "render-now-e2e", title: "Now", publisher: "P", vertical: "news", body_text: "Quick one." })).json<{
      job_id: string;
    }>();
    await pollJob(pub.job_id);
    await env.DB.prepare("UPDATE articles SET audio_key = NULL").run();
    await env.DB.prepare("DELETE FROM render_jobs").run();
    const accepted = await call("/v1/articles/render-now-e2e/render-now", jsonBody("POST", { listener_token: token }));
    expect(accepted.status).toBe(202);
    const { job_id } = await accepted.json<{ job_id: string }>();
    expect((await pollJob(job_id)).state).toBe("done");
    expect(await env.RENDER_GATE.getByName(String(listener!.id)).inFlight()).toBe(0);
    const ready = await call("/v1/articles/render-now-e2e/render-now", jsonBody("POST", { listener_token: token }));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ state: "done", job_id, audio_url: expect.stringMatching(/\.mp3$/) });
  });
});
