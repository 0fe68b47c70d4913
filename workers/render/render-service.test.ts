import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { audioObjectPath } from "../kernel/audio-objects";
import { renderErrorCode } from "../kernel/render-contract";
import { VOICES } from "../kernel/voice-catalogue";

// The render Worker runs beside the API Worker (vitest.config.ts); these calls cross the RENDER
// service binding to its RenderService entrypoint, as POST /v1/render does.
describe("RenderService over RPC", () => {
  it("renders, then answers the same text and voice from the cache", async () => {
    const first = await env.RENDER.render({ text: "Hello over RPC.", voice: "en-GB-female" });
    expect(first).toMatchObject({ provider: "offline", voice: "en-GB-female", cached: false });
    expect(first.key).toMatch(/^[0-9a-f]{64}$/);
    expect(first.duration_seconds).toBeGreaterThan(0.5);
    expect(await env.AUDIO.head(audioObjectPath(first.key, "mp3"))).not.toBeNull();
    expect(await env.RENDER.render({ text: "Hello  over RPC.", voice: "en-GB-female" })).toEqual({
      ...first,
      cached: true,
      characters_synthesized: 0,
      paragraphs_reused: 1,
      paragraphs_encoded: 0,
    });
  });

  it("encodes Opus and WAV on request and reports their sizes; null for an unknown key", async () => {
    const { key } = await env.RENDER.render({ text: "Encode over RPC." });
    for (const format of ["opus", "wav"] as const) {
      const built = await env.RENDER.encode(key, format);
      expect(built!.bytes).toBe((await env.AUDIO.head(audioObjectPath(key, format)))!.size);
    }
    expect(await env.RENDER.encode("f".repeat(64), "wav")).toBeNull();
  });

  it("throws unknown_voice for a voice outside the catalogue", async () => {
    const err = await env.RENDER.render({ text: "Hi.", voice: "no-such-voice" }).catch((e: unknown) => e);
    expect(renderErrorCode(err)).toBe("unknown_voice");
  });
});

describe("RenderService.voices", () => {
  it("says which offers this render Worker can use now and why not the others", async () => {
    const status = await env.RENDER.voices();
    expect(status).toMatchObject({ default_voice: "en-US-female", default_provider: "offline" });
    const nova = status.voices.find((v) => v.id === "nova")!;
    expect(nova).toMatchObject({ provider: "openai", quality: "neural", available: false, reason: "no OPENAI_API_KEY configured" });
    expect(status.voices.find((v) => v.provider === "azure")?.reason).toMatch(/AZURE_SPEECH_KEY/);
    // Only the offline engine, in every language it has data for (issue 42).
    const available = status.voices.filter((v) => v.available);
    expect(new Set(available.map((v) => v.provider))).toEqual(new Set(["offline"]));
    expect(available).toHaveLength(VOICES.filter((v) => v.provider === "offline").length);
    expect(available.find((v) => v.id === "de-female")).toMatchObject({ language: "de", gender: "female" });
  });
});
