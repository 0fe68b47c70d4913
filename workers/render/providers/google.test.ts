import { describe, expect, it } from "vitest";
import { wavFromInt16 } from "../engine/wav";
import { VOICES } from "../../kernel/voice-catalogue";
import { fakeFetch, silentFetch, tonePcm16 } from "../../../test/support/fake-fetch";
import { GOOGLE_TTS_URL, googleSynthesizer } from "./google";

const usFemale = VOICES.find((v) => v.provider === "google" && v.id === "en-US-female")!;

function base64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
}

describe("Google Cloud TTS adapter", () => {
  it("asks text:synthesize for LINEAR16 at 24 kHz with the key in X-Goog-Api-Key, and decodes the WAVE", async () => {
    const wav = wavFromInt16(tonePcm16(0.5, 24_000), 24_000);
    const far = fakeFetch(() => Response.json({ audioContent: base64(wav) }));
    const result = await googleSynthesizer("g-key", far.fetch).synthesize("Hello.", usFemale);
    expect(far.sent).toEqual([
      {
        url: GOOGLE_TTS_URL,
        method: "POST",
        headers: { "x-goog-api-key": "g-key", "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify({
          input: { text: "Hello." },
          voice: { languageCode: "en-US", name: "en-US-Standard-C" },
          audioConfig: { audioEncoding: "LINEAR16", sampleRateHertz: 24_000 },
        }),
      },
    ]);
    expect(result.ok && result.pcm).toMatchObject({ sampleRate: 24_000 });
    expect(result.ok && result.pcm.samples.length).toBe(12_000);
  });

  it.each([
    [429, "RESOURCE_EXHAUSTED", "rate_limited"],
    [400, "Voice 'en-US-Nope' does not exist.", "invalid_voice"],
    [500, "INTERNAL", "upstream_5xx"],
    [403, "API key not valid", "unauthorized"],
  ])("maps HTTP %i (%s) to %s", async (status, message, reason) => {
    const far = fakeFetch(() => Response.json({ error: { code: status, message } }, { status }));
    expect(await googleSynthesizer("g-key", far.fetch).synthesize("Hi.", usFemale)).toMatchObject({ ok: false, reason });
  });

  it("rejects a 200 without audio", async () => {
    const far = fakeFetch(() => Response.json({ nope: true }));
    expect(await googleSynthesizer("g-key", far.fetch).synthesize("Hi.", usFemale)).toMatchObject({ ok: false, reason: "bad_audio" });
  });

  it("gives up after its timeout", async () => {
    expect(await googleSynthesizer("g-key", silentFetch, 20).synthesize("Hi.", usFemale)).toMatchObject({ ok: false, reason: "timeout" });
  });
});
