import { describe, expect, it } from "vitest";
import { VOICES } from "../../kernel/voice-catalogue";
import { ELEVENLABS_BASE_URL, elevenLabsSynthesizer } from "./elevenlabs";
import { fakeFetch, silentFetch, tonePcm16 } from "../../../test/support/fake-fetch";

const rachel = VOICES.find((v) => v.provider === "elevenlabs" && v.id === "rachel")!;

describe("ElevenLabs adapter", () => {
  it("posts to the voice's endpoint for pcm_24000 with the xi-api-key header", async () => {
    const far = fakeFetch(() => new Response(tonePcm16(0.25, 24_000)));
    const result = await elevenLabsSynthesizer("el-key", far.fetch).synthesize("Good morning.", rachel);
    expect(far.sent).toEqual([
      {
        url: `${ELEVENLABS_BASE_URL}/text-to-speech/21m00Tcm4TlvDq8ikWAM?output_format=pcm_24000`,
        method: "POST",
        headers: { "xi-api-key": "el-key", "content-type": "application/json", accept: "audio/pcm" },
        body: JSON.stringify({ text: "Good morning.", model_id: "eleven_multilingual_v2" }),
      },
    ]);
    expect(result.ok && result.pcm.samples.length).toBe(6000);
  });

  it.each([
    [429, { detail: { status: "too_many_concurrent_requests" } }, "rate_limited"],
    [404, { detail: { status: "voice_not_found" } }, "invalid_voice"],
    [400, { detail: { status: "voice_not_found" } }, "invalid_voice"],
    [502, {}, "upstream_5xx"],
    [401, { detail: { status: "invalid_api_key" } }, "unauthorized"],
  ])("maps HTTP %i to its reason", async (status, body, reason) => {
    const far = fakeFetch(() => Response.json(body, { status }));
    expect(await elevenLabsSynthesizer("el-key", far.fetch).synthesize("Hi.", rachel)).toMatchObject({ ok: false, reason });
  });

  it("gives up after its timeout", async () => {
    expect(await elevenLabsSynthesizer("el-key", silentFetch, 20).synthesize("Hi.", rachel)).toMatchObject({ ok: false, reason: "timeout" });
  });
});
