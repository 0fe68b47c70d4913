import { describe, expect, it } from "vitest";
import { DEFAULT_VOICE, type ProviderId } from "../../kernel/voice-catalogue";
import { candidates } from "./select";

const all = () => true;
const only = (...ids: ProviderId[]) => (p: ProviderId) => ids.includes(p);
const summary = (offers: ReturnType<typeof candidates>) => offers?.map((o) => `${o.provider}/${o.id}`);

describe("provider selection", () => {
  it("uses the default voice when none is asked for", () => {
    expect(candidates(undefined, all)?.[0]).toMatchObject({ id: DEFAULT_VOICE, provider: "offline" });
  });

  it("puts the cheapest available provider of the requested voice first", () => {
    // en-US-female: offline ($0) and Google ($4).
    expect(summary(candidates("en-US-female", all))?.slice(0, 2)).toEqual(["offline/en-US-female", "google/en-US-female"]);
    expect(summary(candidates("en-US-female", only("google", "openai")))?.[0]).toBe("google/en-US-female");
  });

  it("falls back to equivalent voices (same language and gender) of other providers, cheapest first", () => {
    expect(summary(candidates("nova", all))).toEqual([
      "openai/nova",
      "offline/en-US-female",
      "google/en-US-female",
      "workers-ai/asteria",
      "azure/jenny",
      "workers-ai/thalia",
      "elevenlabs/rachel",
    ]);
  });

  it("leaves out unavailable providers", () => {
    expect(summary(candidates("nova", only("workers-ai")))).toEqual(["workers-ai/asteria", "workers-ai/thalia"]);
    expect(candidates("nova", only())).toEqual([]);
  });

  it("returns null for a voice outside the catalogue", () => {
    expect(candidates("no-such-voice", all)).toBeNull();
  });
});
