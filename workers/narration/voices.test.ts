import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { DEFAULT_VOICE, PROVIDERS, VOICES } from "../kernel/voice-catalogue";

describe("GET /v1/voices", () => {
  it("lists every voice offer with provider, language, gender, style and price, cheapest first", async () => {
    const res = await call("/v1/voices");
    expect(res.status).toBe(200);
    const body = await res.json<{ default_voice: string; voices: { id: string; provider: string; price_per_million_chars: number; default: boolean }[] }>();
    expect(body.default_voice).toBe(DEFAULT_VOICE);
    expect(body.voices).toHaveLength(VOICES.length);
    const prices = body.voices.map((v) => v.price_per_million_chars);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(body.voices).toContainEqual({
      id: "nova",
      provider: "openai",
      language: "en-US",
      gender: "female",
      style: "bright",
      price_per_million_chars: PROVIDERS.openai.pricePerMillionChars,
      max_chars_per_request: 4096,
      default: false,
    });
    expect(body.voices.filter((v) => v.default).map((v) => v.provider)).toEqual(["offline", "google"]);
  });

  it("is in the OpenAPI document", async () => {
    const doc = await (await call("/openapi.json")).json<{ paths: Record<string, unknown> }>();
    expect(doc.paths["/v1/voices"]).toBeDefined();
  });
});
