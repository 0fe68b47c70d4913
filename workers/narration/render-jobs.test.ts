import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { testVars } from "../../test/vars";
import { callWith, FakeRender } from "../../test/support/narration";

afterEach(() => vi.restoreAllMocks());

/** A private audio URL in `format`: a capability (kernel/audio-capability.ts), never the cache key. */
const capabilityUrl = (format: string) => expect.stringMatching(new RegExp(`^${testVars.BASE_URL}/v1/audio/[A-Za-z0-9_-]{54}\\.${format}$`));

const post = (body: unknown, headers: Record<string, string> = apiKeyHeaders) => jsonBody("POST", body, headers);

describe("POST /v1/render", () => {
  it("401 without the API key, and nothing rendered", async () => {
    const render = new FakeRender();
    const res = await callWith(render, "/v1/render", post({ text: "Hello." }, {}));
    expect(res.status).toBe(401);
    expect(render.renders).toEqual([]);
  });

  it("accepts the key in query api_key, x-service-key or x-legacy-key", async () => {
    const render = new FakeRender();
    const key = testVars.SERVICE_API_KEY;
    expect((await callWith(render, `/v1/render?api_key=${key}`, post({ text: "a" }, {}))).status).toBe(200);
    expect((await callWith(render, "/v1/render", post({ text: "a" }, { "x-service-key": key }))).status).toBe(200);
    expect((await callWith(render, "/v1/render", post({ text: "a" }, { "x-legacy-key": key }))).status).toBe(200);
  });

  it("200 RenderResponse from the real render Worker; the same text again is cached", async () => {
    const body = () => jsonBody("POST", { text: "  The quick brown fox.  " }, apiKeyHeaders);
    const first = await call("/v1/render", body());
    expect(first.status).toBe(200);
    const result = await first.json<Record<string, unknown>>();
    const key = result.key as string;
    expect(result).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{64}$/),
      provider: "offline",
      voice: "en-US-female",
      quality: "formant",
      requested_voice: null,
      language: "en",
      language_source: "detected",
      fallback: false,
      cached: false,
      // Raw text is private: its URLs are capabilities, not its key (issue 40 item 2, test/private-audio-urls.test.ts).
      audio_url: capabilityUrl("mp3"),
      opus_url: capabilityUrl("opus"),
      wav_url: capabilityUrl("wav"),
      duration_seconds: expect.any(Number),
    });
    expect(result.duration_seconds).toBeGreaterThan(0.5);
    expect(await (await call("/v1/render", body())).json()).toMatchObject({ key, cached: true, audio_url: result.audio_url });
    expect((await call(new URL(result.audio_url as string).pathname, { method: "HEAD" })).headers.get("content-type")).toBe("audio/mpeg");
  });

  it("passes the trimmed text and the voice to the render Worker", async () => {
    const render = new FakeRender();
    await callWith(render, "/v1/render", post({ text: "  Hello there.  ", voice: "en-us" }));
    expect(render.renders).toEqual([{ text: "Hello there.", voice: "en-us", language: "en", publisher: null, tenant: null }]);
  });

  it("422 for empty or oversized text, and an unknown voice reported by the render Worker", async () => {
    const render = new FakeRender();
    expect((await callWith(render, "/v1/render", post({ text: "   " }))).status).toBe(422);
    // docs/narration-api.md: text 1 to 10,000 characters.
    expect((await callWith(render, "/v1/render", post({ text: "x".repeat(10_001) }))).status).toBe(422);
    expect(render.renders).toEqual([]);
    expect((await callWith(render, "/v1/render", post({ text: "x".repeat(10_000) }))).status).toBe(200);
    // The real render Worker does not know this voice.
    const res = await call("/v1/render", post({ text: "hi", voice: "no-such-voice" }));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ detail: [{ loc: ["body", "voice"], msg: "unknown voice; see GET /v1/voices", type: "unknown_voice" }] });
  });

  it("503 with Retry-After when no provider is available", async () => {
    const render = new FakeRender();
    vi.spyOn(render, "render").mockRejectedValue(new Error("no_provider: all cooling down"));
    const res = await callWith(render, "/v1/render", post({ text: "hi" }));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
  });
});

describe("POST /v1/jobs and GET /v1/jobs/{job_id}", () => {
  it("401 without the API key on both, and no job created", async () => {
    expect((await call("/v1/jobs", post({ text: "hi" }, {}))).status).toBe(401);
    expect((await call("/v1/jobs/whatever")).status).toBe(401);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM render_jobs").first("n")).toBe(0);
  });

  it("202 JobView at once for raw text, with the row written before the Queue message", async () => {
    const send = vi.spyOn(env.RENDER_QUEUE, "send");
    const res = await call("/v1/jobs", post({ text: "Read me.", voice: "en-US-male" }));
    expect(res.status).toBe(202);
    const job = await res.json<Record<string, unknown>>();
    expect(job).toMatchObject({
      id: expect.any(String),
      state: "queued",
      priority: "normal",
      article_slug: null,
      voice: "en-US-male",
      provider: null,
      audio_url: null,
      error: null,
      attempts: 0,
      created_at: expect.stringMatching(/Z$/),
      started_at: null,
      finished_at: null,
    });
    expect(res.headers.get("location")).toBe(`/v1/jobs/${job.id}`);
    expect(send).toHaveBeenCalledExactlyOnceWith({ job_id: job.id }, { contentType: "json" });
    expect(await env.DB.prepare("SELECT text FROM render_jobs WHERE id = ?").bind(job.id).first("text")).toBe("Read me.");
  });

  it("answers before the Queue takes the message, and a refused message fails the job (issue 28)", async () => {
    let refuse = (_err: Error) => {};
    vi.spyOn(env.RENDER_QUEUE, "send").mockReturnValue(new Promise((_resolve, reject) => (refuse = reject)));
    const res = await call("/v1/jobs", post({ text: "Read me." }));
    expect(res.status).toBe(202);
    const { id } = await res.json<{ id: string }>();
    const job = () => env.DB.prepare("SELECT state, error FROM render_jobs WHERE id = ?").bind(id).first();
    expect(await job()).toEqual({ state: "queued", error: null });
    refuse(new Error("queue down"));
    await vi.waitFor(async () => expect(await job()).toEqual({ state: "failed", error: "enqueue failed: queue down" }));
  });

  it("a job for an article takes the article's slug and voice", async () => {
    await env.DB.prepare(
      "INSERT INTO articles (slug, title, publisher, vertical, body_text, content_hash, voice) VALUES ('s1', 'T', 'P', 'tech', 'B', 'h', 'v9')",
    ).run();
    const job = await (await call("/v1/jobs", post({ article_slug: "s1" }))).json();
    expect(job).toMatchObject({ article_slug: "s1", voice: "v9" });
    expect((await call("/v1/jobs", post({ article_slug: "missing" }))).status).toBe(404);
  });

  it("422 unless exactly one of text and article_slug", async () => {
    expect((await call("/v1/jobs", post({}))).status).toBe(422);
    expect((await call("/v1/jobs", post({ text: "a", article_slug: "b" }))).status).toBe(422);
    // More raw text than one render can narrate is refused up front rather than failed later.
    // docs/narration-api.md: at most 60,000 characters.
    expect((await call("/v1/jobs", post({ text: "x".repeat(60_000) }))).status).toBe(202);
    const tooLong = await call("/v1/jobs", post({ text: "x".repeat(60_001) }));
    expect(tooLong.status).toBe(422);
    expect(await tooLong.json()).toMatchObject({ detail: [{ loc: ["body", "text"], type: "max_length" }] });
  });

  it("GET shows each state: the stream's URL while it renders, audio URLs only when done, the error only when failed; 404 for an unknown id", async () => {
    const { id } = await (await call("/v1/jobs", post({ text: "Poll me." }))).json<{ id: string }>();
    const get = async () => (await call(`/v1/jobs/${id}`, { headers: apiKeyHeaders })).json<Record<string, unknown>>();
    const streamUrl = `${testVars.BASE_URL}/v1/jobs/${id}/stream.mp3`;
    expect(await get()).toMatchObject({ id, state: "queued", audio_url: null, stream_url: streamUrl, requested_voice: null, fallback: null, quality: null });
    await env.DB.prepare("UPDATE render_jobs SET state = 'running' WHERE id = ?").bind(id).run();
    expect(await get()).toMatchObject({ state: "running", audio_url: null, stream_url: streamUrl });
    const key = "c".repeat(64);
    // As the consumer records it: nova was asked for, and eSpeak's en-US-female spoke instead.
    await env.DB.prepare(
      "UPDATE render_jobs SET state = 'done', audio_key = ?, provider = 'offline', voice = 'en-US-female', requested_voice = 'nova', fallback = 1, finished_at = 1795000000000 WHERE id = ?",
    )
      .bind(key, id)
      .run();
    expect(await get()).toMatchObject({
      state: "done",
      provider: "offline",
      voice: "en-US-female",
      quality: "formant",
      requested_voice: "nova",
      fallback: true,
      audio_key: key,
      stream_url: null,
      audio_url: capabilityUrl("mp3"),
      opus_url: capabilityUrl("opus"),
      wav_url: capabilityUrl("wav"),
      finished_at: new Date(1795000000000).toISOString(),
    });
    await env.DB.prepare("UPDATE render_jobs SET state = 'failed', error = 'provider exploded' WHERE id = ?").bind(id).run();
    expect(await get()).toMatchObject({ state: "failed", error: "provider exploded", audio_url: null, stream_url: null });
    expect((await call("/v1/jobs/nope", { headers: apiKeyHeaders })).status).toBe(404);
  });
});
