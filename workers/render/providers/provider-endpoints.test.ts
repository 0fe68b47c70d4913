import { renderEnv } from "../../../test/support/render-store";
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { renderConfig } from "../config";
import { database, renderJobs } from "../../db";
import { consumeDeadLetters, consumeRenderBatch } from "../consumer";
import { VOICES } from "../../kernel/voice-catalogue";
import { silentFetch, tonePcm16 } from "../../../test/support/fake-fetch";
import { resetHealth } from "./health";
import type { FetchFn } from "./http";
import { configuredProviders } from "./registry";

/** Self-hosted and regional endpoints: an OpenAI-compatible server on loopback, the others elsewhere. */
const ENDPOINTS = {
  OPENAI_BASE_URL: "http://127.0.0.1:8880/v1",
  ELEVENLABS_BASE_URL: "https://api.eu.elevenlabs.test/v1",
  GOOGLE_TTS_BASE_URL: "https://eu-texttospeech.googleapis.test/v1",
  AZURE_SPEECH_BASE_URL: "https://speech.azure.test",
};
const KEYS = { OPENAI_API_KEY: "sk", ELEVENLABS_API_KEY: "el", GOOGLE_TTS_API_KEY: "g", AZURE_SPEECH_KEY: "az", AZURE_SPEECH_REGION: "westeurope" };

/** A far end faked at fetch: records every URL asked and answers with `respond`. */
function farEnd(respond: FetchFn) {
  const urls: string[] = [];
  const fetchFn: FetchFn = (url, init) => {
    urls.push(url);
    return respond(url, init);
  };
  return { urls, fetchFn };
}

const offerOf = (provider: string, id: string) => VOICES.find((v) => v.provider === provider && v.id === id)!;

beforeEach(() => resetHealth());

describe("configurable provider endpoints", () => {
  it("each adapter speaks to its configured base URL", async () => {
    const far = farEnd(async () => new Response(tonePcm16(0.1, 24_000), { headers: { "content-type": "audio/pcm" } }));
    const providers = configuredProviders({ ...KEYS, ...ENDPOINTS }, far.fetchFn);
    await providers.openai!.synthesize("Hi.", offerOf("openai", "nova"));
    await providers.elevenlabs!.synthesize("Hi.", offerOf("elevenlabs", "rachel"));
    await providers.google!.synthesize("Hi.", offerOf("google", "en-US-female"));
    await providers.azure!.synthesize("Hi.", offerOf("azure", "jenny"));
    expect(far.urls).toEqual([
      "http://127.0.0.1:8880/v1/audio/speech",
      "https://api.eu.elevenlabs.test/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM?output_format=pcm_24000",
      "https://eu-texttospeech.googleapis.test/v1/text:synthesize",
      "https://speech.azure.test/cognitiveservices/v1",
    ]);
  });

  it("the configuration schema refuses a base URL that is not an http(s) URL, naming it", () => {
    const schemeless: object = { ...KEYS, OPENAI_BASE_URL: "api.openai.com/v1" };
    expect(() => configuredProviders(schemeless)).toThrow(/OPENAI_BASE_URL/);
    expect(() => renderConfig({ ...env, GOOGLE_TTS_BASE_URL: "ftp://tts.test" })).toThrow(/GOOGLE_TTS_BASE_URL/);
  });
});

/** A body that breaks off after its first bytes, as a dropped connection does. */
function truncated(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(tonePcm16(0.05, 24_000));
      c.error(new Error("connection reset"));
    },
  });
  return new Response(body, { headers: { "content-type": "audio/pcm" } });
}

const FAULTS: [string, FetchFn][] = [
  ["5xx", async () => new Response("upstream overloaded", { status: 503 })],
  ["a timeout", silentFetch],
  ["truncated audio", async () => truncated()],
  ["garbage instead of audio", async () => new Response("<html><body>Bad gateway</body></html>", { headers: { "content-type": "text/html" } })],
];

describe("a render whose providers fail ends in the dead-letter queue, never stuck in running", () => {
  it.each(FAULTS)("%s: falls back by the selection rule, retries, and the dead-letter consumer fails the job", async (_, fault) => {
    const far = farEnd(fault);
    // Every cloud provider on the faulty far end; without the offline engine, no candidate can succeed.
    const { offline: _offline, ...cloud } = configuredProviders({ ...KEYS, ...ENDPOINTS }, far.fetchFn, 50);
    await database(env).insert(renderJobs).values({ id: "job-fault", text: "The far end is down.", voice: "nova" });
    const job = () => database(env).select().from(renderJobs).where(eq(renderJobs.id, "job-fault")).get();

    const first = createMessageBatch("narration-render", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { job_id: "job-fault" } }]);
    await consumeRenderBatch(first, renderEnv, cloud);
    // The requested voice first (OpenAI's nova), then the equivalent voices (en-US, female) cheapest first.
    expect(far.urls.map((u) => new URL(u).host)).toEqual(["127.0.0.1:8880", "eu-texttospeech.googleapis.test", "speech.azure.test", "api.eu.elevenlabs.test"]);
    expect((await getQueueResult(first, createExecutionContext())).retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    expect(await job()).toMatchObject({ state: "queued", attempts: 1, error: expect.stringMatching(/^no_provider: openai\/nova: \w+; google/) });

    // The redelivery fails again (providers in trouble sit out a cool-down, the others fail anew) and is retried.
    const again = createMessageBatch("narration-render", [{ id: "m2", timestamp: new Date(), attempts: 2, body: { job_id: "job-fault" } }]);
    await consumeRenderBatch(again, renderEnv, cloud);
    expect((await getQueueResult(again, createExecutionContext())).retryMessages.map((m) => m.msgId)).toEqual(["m2"]);
    expect(await job()).toMatchObject({ state: "queued", attempts: 2 });

    // After max_retries the message lands in the dead-letter queue.
    await consumeDeadLetters(
      createMessageBatch("narration-render-dlq", [{ id: "d", timestamp: new Date(), attempts: 1, body: { job_id: "job-fault" } }]),
      renderEnv,
    );
    expect(await job()).toMatchObject({ state: "failed", error: expect.stringMatching(/^no_provider: /) });
  });
});
