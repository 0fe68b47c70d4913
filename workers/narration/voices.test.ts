import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { callWith, FakeRender } from "../../test/support/narration";
import { PROVIDERS, VOICES } from "../kernel/voice-catalogue";

interface VoiceBody {
  id: string;
  provider: string;
  quality: string;
  price_per_million_chars: number;
  default: boolean;
  available: boolean;
  reason: string | null;
}

describe("GET /v1/voices", () => {
  it("lists every voice offer with its quality and whether it can be used now, neural first, and which voice speaks by default", async () => {
    const res = await call("/v1/voices");
    expect(res.status).toBe(200);
    const body = await res.json<{ default_voice: string; default_provider: string; voices: VoiceBody[] }>();
    expect(body.voices).toHaveLength(VOICES.length);
    // The tests' render Worker has no provider key and no AI binding: only eSpeak can speak.
    expect(body).toMatchObject({ default_voice: "en-US-female", default_provider: "offline" });
    expect(body.voices.filter((v) => v.default).map((v) => `${v.provider}/${v.id}`)).toEqual(["offline/en-US-female"]);
    expect(body.voices.filter((v) => v.available).every((v) => v.provider === "offline")).toBe(true);
    expect(body.voices.map((v) => v.quality).lastIndexOf("neural")).toBeLessThan(body.voices.map((v) => v.quality).indexOf("formant"));
    expect(body.voices).toContainEqual({
      id: "nova",
      provider: "openai",
      language: "en-US",
      gender: "female",
      style: "bright",
      quality: "neural",
      price_per_million_chars: PROVIDERS.openai.pricePerMillionChars,
      max_chars_per_request: 4096,
      default: false,
      available: false,
      reason: "no OPENAI_API_KEY configured",
    });
    expect(body.voices.find((v) => v.provider === "workers-ai")?.reason).toMatch(/no AI binding/);
    expect(body.voices.find((v) => v.id === "en-GB-male" && v.provider === "offline")).toMatchObject({ quality: "formant", available: true, reason: null });
  });

  it("says nothing is available, rather than failing, when the render Worker does not answer", async () => {
    const broken = Object.assign(new FakeRender(), {
      voices: () => Promise.reject(new Error("render Worker down")),
    });
    const res = await callWith(broken, "/v1/voices");
    expect(res.status).toBe(200);
    const body = await res.json<{ default_voice: string | null; voices: VoiceBody[] }>();
    expect(body.default_voice).toBeNull();
    expect(body.voices.every((v) => !v.available && v.reason === "the render service did not answer")).toBe(true);
  });

  it("is in the OpenAPI document", async () => {
    const doc = await (await call("/openapi.json")).json<{ paths: Record<string, unknown> }>();
    expect(doc.paths["/v1/voices"]).toBeDefined();
  });
});
