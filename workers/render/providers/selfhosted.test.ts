import { renderEnv, store } from "../../../test/support/render-store";
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { database, renderJobs } from "../../db";
import { selfhostedTtsUrl } from "../../../test/support/selfhosted-tts";
import { VOICES } from "../../kernel/voice-catalogue";
import { consumeDeadLetters, consumeRenderBatch } from "../consumer";
import { renderText } from "../pipeline/render";
import { availability, voiceStatuses } from "./availability";
import { resetHealth } from "./health";
import { type FetchFn, MAX_AUDIO_BYTES } from "./http";
import { configuredProviders, providerSetup } from "./registry";
import { forgetVoiceLists, selfHostedSynthesizer } from "./selfhosted";

// Every request goes to a real HTTP server on loopback that speaks Kokoro-FastAPI's API and answers
// with real speech (scripts/selfhosted-tts-setup.mjs); faults are asked for by a word in the text.

const heart = VOICES.find((v) => v.provider === "selfhosted" && v.id === "af_heart")!;

/** The real fetch, recording what was sent. */
function recording() {
  const sent: { url: string; method?: string; authorization: string | null; body: unknown }[] = [];
  const fetchFn: FetchFn = (url, init) => {
    sent.push({
      url,
      method: init.method,
      authorization: new Headers(init.headers).get("authorization"),
      body: init.body ? JSON.parse(String(init.body)) : null,
    });
    return fetch(url, init);
  };
  return { sent, fetchFn };
}

/** The render Worker's providers with the loopback server configured (and the offline engine). */
const withServer = (vars: Record<string, string> = {}, timeoutMs = 5_000, fetchFn?: FetchFn) =>
  configuredProviders({ SELFHOSTED_TTS_BASE_URL: selfhostedTtsUrl(), ...vars } as object, fetchFn, timeoutMs);

/** Whether the loopback server's private address was visited by a client that followed FAULT_REDIRECT_<id>. */
async function visitedAfterRedirect(id: string): Promise<boolean> {
  const { requests } = (await (await fetch(`${selfhostedTtsUrl()}/requests`)).json()) as { requests: { redirected?: string }[] };
  return requests.some((r) => r.redirected === id);
}

function rms(samples: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / samples.length);
}

beforeEach(() => {
  resetHealth();
  forgetVoiceLists();
});

describe("self-hosted speech server (OpenAI-compatible, on loopback)", () => {
  it("asks POST {base}/audio/speech for a whole WAVE file of the voice with the model and the bearer key, and gets real speech", async () => {
    const far = recording();
    const synth = selfHostedSynthesizer({ baseUrl: `${selfhostedTtsUrl()}/`, apiKey: "local-key", model: "kokoro-v1", fetchFn: far.fetchFn });
    const result = await synth.synthesize("The lanterns drift down the river.", heart);
    expect(far.sent).toEqual([
      {
        url: `${selfhostedTtsUrl()}/audio/speech`,
        method: "POST",
        authorization: "Bearer local-key",
        body: { model: "kokoro-v1", input: "The lanterns drift down the river.", voice: "af_heart", response_format: "wav", stream: false },
      },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.pcm.sampleRate).toBe(22_050);
    expect(result.pcm.samples.length / 22_050).toBeGreaterThan(1);
    expect(rms(result.pcm.samples)).toBeGreaterThan(0.01);
  });

  it("sends no Authorization without a key, and asks for the model kokoro by default", async () => {
    const far = recording();
    await selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl(), fetchFn: far.fetchFn }).synthesize("Hi.", heart);
    expect(far.sent[0]).toMatchObject({ authorization: null, body: { model: "kokoro" } });
  });

  it("reads the voices the server lists, once per isolate within a minute", async () => {
    const far = recording();
    const synth = selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl(), fetchFn: far.fetchFn });
    const listing = await synth.voices();
    expect(listing).toEqual({ names: expect.arrayContaining(["af_heart", "am_adam", "bf_emma", "bm_george"]) });
    expect(await selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl(), fetchFn: far.fetchFn }).voices()).toEqual(listing);
    expect(far.sent.map((s) => `${s.method} ${s.url}`)).toEqual([`GET ${selfhostedTtsUrl()}/audio/voices`]);
  });

  // Planted bug: keep the promise of the first GET /audio/voices and hand it to a concurrent ask;
  // then one request waits on another's I/O and the server is asked once.
  it("keeps a voice list once read, never a read in flight: concurrent first asks each make their own", async () => {
    const far = recording();
    const synth = () => selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl(), fetchFn: far.fetchFn });
    const [a, b] = await Promise.all([synth().voices(), synth().voices()]);
    expect(b).toEqual(a);
    expect(far.sent).toHaveLength(2);
    await synth().voices();
    expect(far.sent).toHaveLength(2);
  });

  it("takes the configured voices, or every catalogue voice, from a server that lists none", async () => {
    const configured = selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl("nolist"), configuredVoices: ["af_bella", "am_michael"] });
    expect(await configured.voices()).toEqual({ names: ["af_bella", "am_michael"] });
    forgetVoiceLists();
    expect(await selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl("nolist") }).voices()).toEqual({ all: true });
  });

  it("maps the server's faults to failures: 5xx, a hang past the timeout, truncated or cut-off audio, an unknown voice", async () => {
    const synth = selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl(), timeoutMs: 1_000 });
    expect(await synth.synthesize("FAULT_503 please.", heart)).toMatchObject({ ok: false, reason: "upstream_5xx" });
    expect(await synth.synthesize("FAULT_HANG please.", heart)).toMatchObject({ ok: false, reason: "timeout" });
    expect(await synth.synthesize("FAULT_TRUNCATE please, with a sentence long enough to cut.", heart)).toMatchObject({
      ok: false,
      reason: "bad_audio",
      detail: expect.stringMatching(/^truncated WAVE/),
    });
    expect(await synth.synthesize("FAULT_RESET please, with a sentence long enough to cut.", heart)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^(network|timeout)$/),
    });
    const unknown = { ...heart, native: "zz_nobody" };
    expect(await synth.synthesize("Who?", unknown)).toMatchObject({ ok: false, reason: "invalid_voice" });
  });

  // The attacks of issue 46 item 3: a provider's answer must neither lead the render Worker to a
  // private address nor exhaust its memory (http.ts postWithTimeout, MAX_AUDIO_BYTES).
  it("does not follow a 302 to a private address, even one that answers real speech: the request fails as redirected", async () => {
    const synth = selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl() });
    expect(await synth.synthesize("FAULT_REDIRECT_direct Speak, then go elsewhere.", heart)).toMatchObject({
      ok: false,
      reason: "redirected",
      detail: "HTTP 302: the provider redirects; a redirect is not followed",
    });
    expect(await visitedAfterRedirect("direct")).toBe(false);
  });

  it("cuts off an answer larger than MAX_AUDIO_BYTES as it streams, with no Content-Length to warn, and refuses it", async () => {
    const synth = selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl() });
    expect(await synth.synthesize("FAULT_HUGE An endless silence.", heart)).toEqual({
      ok: false,
      reason: "too_large",
      detail: `the answer is larger than ${MAX_AUDIO_BYTES} bytes`,
    });
  });

  it("does not follow a redirect of the voice list: the list is an error, not the list redirected to", async () => {
    const listing = await selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl("redirect") }).voices();
    expect(listing).toEqual({ error: "GET /audio/voices answered HTTP 302, a redirect, not followed" });
  });
});

describe("self-hosted voices in the selection rule and GET /v1/voices", () => {
  it("says why a voice list failed in its own words, never the network error's text (issue 40 item 13)", async () => {
    const failing: FetchFn = async () => {
      throw new TypeError("connect ECONNREFUSED 10.20.30.40:8880 (tts.internal.example)");
    };
    const listing = await selfHostedSynthesizer({ baseUrl: "http://tts-unreachable.test", fetchFn: failing }).voices();
    expect(listing).toEqual({ error: "GET /audio/voices failed: no connection" });
  });

  it("with a server configured and no voice asked for, its af_heart speaks, not eSpeak; the Workers AI binding still comes first", async () => {
    const result = await renderText(store, { text: "A neural voice on this machine." }, withServer());
    expect(result).toMatchObject({ provider: "selfhosted", voice: "af_heart", quality: "neural", requested_voice: null, fallback: false });
    const aura = { run: async () => new Response("no", { status: 503 }) };
    const status = await voiceStatuses(providerSetup({ SELFHOSTED_TTS_BASE_URL: selfhostedTtsUrl(), AI: aura } as object).synthesizers, {});
    expect(status).toMatchObject({ default_voice: "asteria", default_provider: "workers-ai" });
  });

  it("lists the server's own voices as available, adds the ones the catalogue does not name, and says why the others are not", async () => {
    const { synthesizers, missing } = providerSetup({ SELFHOSTED_TTS_BASE_URL: selfhostedTtsUrl("custom") } as object);
    const status = await voiceStatuses(synthesizers, missing);
    const selfhosted = status.voices.filter((v) => v.provider === "selfhosted");
    expect(selfhosted.filter((v) => v.available).map((v) => v.id)).toEqual(["af_heart", "am_adam", "af_custom"]);
    expect(selfhosted.find((v) => v.id === "af_custom")).toMatchObject({ language: "en-US", gender: "female", quality: "neural" });
    expect(selfhosted.find((v) => v.id === "bf_emma")).toMatchObject({ available: false, reason: "the self-hosted server does not list this voice" });
    expect(status).toMatchObject({ default_voice: "af_heart", default_provider: "selfhosted" });
    const rendered = await renderText(
      store,
      { text: "A voice only this server has.", voice: "af_custom" },
      configuredProviders({ SELFHOSTED_TTS_BASE_URL: selfhostedTtsUrl("custom") } as object),
    );
    expect(rendered).toMatchObject({ provider: "selfhosted", voice: "af_custom", fallback: false });
  });

  it("makes every voice of a server that does not answer unavailable, and eSpeak speaks", async () => {
    const down = "http://127.0.0.1:9/v1"; // the discard port: nothing listens
    const { synthesizers, missing } = providerSetup({ SELFHOSTED_TTS_BASE_URL: down } as object);
    const now = await availability(synthesizers, missing);
    expect(now.reason(heart)).toMatch(/^the self-hosted server did not answer/);
    expect(missing.selfhosted).toBeUndefined();
    expect(await renderText(store, { text: "Nobody home." }, synthesizers)).toMatchObject({ provider: "offline", fallback: false });
    const unconfigured = providerSetup({});
    expect((await availability(unconfigured.synthesizers, unconfigured.missing)).reason(heart)).toBe("no SELFHOSTED_TTS_BASE_URL configured");
  });
});

describe("a self-hosted server's faults in the queue: retries, fallback, never a job stuck in running", () => {
  const job = (id: string) => database(env).select().from(renderJobs).where(eq(renderJobs.id, id)).get();
  const deliver = async (jobId: string, attempts: number, synthesizers: ReturnType<typeof withServer>) => {
    const batch = createMessageBatch("narration-render", [{ id: `m${attempts}`, timestamp: new Date(), attempts, body: { job_id: jobId } }]);
    await consumeRenderBatch(batch, renderEnv, synthesizers);
    return getQueueResult(batch, createExecutionContext());
  };

  it("falls back to the next offer when the server fails: the job is done by eSpeak and says it was a fallback", async () => {
    await database(env).insert(renderJobs).values({ id: "job-sh-503", text: "FAULT_503 The server is overloaded." });
    const outcome = await deliver("job-sh-503", 1, withServer());
    expect(outcome.retryMessages).toEqual([]);
    expect(await job("job-sh-503")).toMatchObject({ state: "done", provider: "offline", requestedVoice: null, fallback: true, error: null });
  });

  it("retries: the first attempt fails and puts the job back in the queue with its error, the next one is narrated by the server", async () => {
    const { offline: _, ...onlyServer } = withServer();
    await database(env).insert(renderJobs).values({ id: "job-sh-once", text: "FAULT_ONCE_retry The server warms up, then speaks." });
    const first = await deliver("job-sh-once", 1, onlyServer);
    expect(first.retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    expect(await job("job-sh-once")).toMatchObject({
      state: "queued",
      attempts: 1,
      error: expect.stringMatching(/^no_provider: selfhosted\/af_heart: upstream_5xx/),
    });
    resetHealth(); // the queue's backoff outlasts the provider's cool-down
    const second = await deliver("job-sh-once", 2, onlyServer);
    expect(second.retryMessages).toEqual([]);
    expect(await job("job-sh-once")).toMatchObject({ state: "done", provider: "selfhosted", voice: "af_heart", fallback: false, attempts: 2, error: null });
  });

  it.each([
    ["a hang", "FAULT_HANG", "timeout"],
    ["truncated audio", "FAULT_TRUNCATE", "bad_audio"],
    ["a dropped connection", "FAULT_RESET", "(network|timeout)"],
  ])("%s: the job goes back to queued with the reason, never stays running, and the dead-letter consumer fails it", async (_, fault, reason) => {
    const { offline: _offline, ...onlyServer } = withServer({}, 1_000);
    const id = `job-sh-${fault}`;
    await database(env)
      .insert(renderJobs)
      .values({ id, text: `${fault} A sentence long enough to be cut in half on its way.` });
    const outcome = await deliver(id, 1, onlyServer);
    expect(outcome.retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    expect(await job(id)).toMatchObject({ state: "queued", error: expect.stringMatching(new RegExp(`^no_provider: selfhosted/af_heart: ${reason}`)) });
    await consumeDeadLetters(createMessageBatch("narration-render-dlq", [{ id: "d", timestamp: new Date(), attempts: 1, body: { job_id: id } }]), renderEnv);
    expect(await job(id)).toMatchObject({ state: "failed", error: expect.stringMatching(/^no_provider: /) });
  });

  it.each([
    ["a 302 to a private address", "FAULT_REDIRECT_queue", "redirected"],
    ["an answer past the size limit", "FAULT_HUGE", "too_large"],
  ])("%s: the job fails with that reason, and no redirect is followed", async (_, fault, reason) => {
    const { offline: _offline, ...onlyServer } = withServer();
    const id = `job-sh-${fault}`;
    await database(env)
      .insert(renderJobs)
      .values({ id, text: `${fault} A provider's answer to refuse.` });
    await deliver(id, 1, onlyServer);
    expect(await job(id)).toMatchObject({ error: `no_provider: selfhosted/af_heart: ${reason}` });
    await consumeDeadLetters(createMessageBatch("narration-render-dlq", [{ id: "d", timestamp: new Date(), attempts: 1, body: { job_id: id } }]), renderEnv);
    expect(await job(id)).toMatchObject({ state: "failed", error: `no_provider: selfhosted/af_heart: ${reason}` });
    expect(await visitedAfterRedirect("queue")).toBe(false);
  });
});
