import { describe, expect, it } from "vitest";
import { VOICES } from "../../kernel/voice-catalogue";
import { fakeFetch, silentFetch, tonePcm16 } from "../../../test/support/fake-fetch";
import { OPENAI_SPEECH_URL, openAiSynthesizer } from "./openai";

const nova = VOICES.find((v) => v.provider === "openai" && v.id === "nova")!;

describe("OpenAI adapter", () => {
  it("asks /v1/audio/speech for raw PCM with the bearer key and reads 24 kHz mono", async () => {
    const far = fakeFetch(() => new Response(tonePcm16(0.5, 24_000)));
    const result = await openAiSynthesizer("sk-test", far.fetch).synthesize("Hello there.", nova);
    expect(far.sent).toEqual([
      {
        url: OPENAI_SPEECH_URL,
        method: "POST",
        headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
        body: JSON.stringify({ model: "tts-1", input: "Hello there.", voice: "nova", response_format: "pcm" }),
      },
    ]);
    expect(result.ok && result.pcm.sampleRate).toBe(24_000);
    expect(result.ok && result.pcm.samples.length).toBe(12_000);
  });

  it.each([
    [429, "Rate limit reached", "rate_limited"],
    [500, "oops", "upstream_5xx"],
    [503, "overloaded", "upstream_5xx"],
    [401, "bad key", "unauthorized"],
    [400, "Invalid value for 'voice'", "invalid_voice"],
    [400, "input too long", "rejected"],
  ])("maps HTTP %i (%s) to %s", async (status, message, reason) => {
    const far = fakeFetch(() => Response.json({ error: { message } }, { status }));
    const result = await openAiSynthesizer("sk-test", far.fetch).synthesize("Hi.", nova);
    expect(result).toMatchObject({ ok: false, reason });
  });

  it("gives up after its timeout", async () => {
    const result = await openAiSynthesizer("sk-test", silentFetch, 20).synthesize("Hi.", nova);
    expect(result).toMatchObject({ ok: false, reason: "timeout" });
  });

  it("reports a network failure as a value", async () => {
    const result = await openAiSynthesizer("sk-test", () => Promise.reject(new TypeError("connection reset"))).synthesize("Hi.", nova);
    expect(result).toEqual({ ok: false, reason: "network", detail: "connection reset" });
  });
});
