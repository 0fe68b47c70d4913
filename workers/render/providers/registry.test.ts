import { describe, expect, it } from "vitest";
import { isHealthy, markUnhealthy, resetHealth } from "./health";
import { voiceStatuses } from "./availability";
import { configuredProviders, providerSetup } from "./registry";

describe("configuredProviders", () => {
  it("has only the offline engine without keys or an AI binding (local dev and tests)", () => {
    const unconfigured: object = { OPENAI_API_KEY: "", GOOGLE_TTS_API_KEY: "" };
    expect(Object.keys(configuredProviders(unconfigured))).toEqual(["offline"]);
  });

  it("makes a cloud provider available when its key (and Azure's region) is set, Workers AI when AI is bound", () => {
    const env = {
      AI: { run: async () => new Response() },
      OPENAI_API_KEY: "sk",
      ELEVENLABS_API_KEY: "el",
      GOOGLE_TTS_API_KEY: "g",
      AZURE_SPEECH_KEY: "az",
      AZURE_SPEECH_REGION: "westeurope",
    };
    expect(Object.keys(configuredProviders(env)).sort()).toEqual(["azure", "elevenlabs", "google", "offline", "openai", "workers-ai"]);
    const keyWithoutRegion: object = { AZURE_SPEECH_KEY: "az" };
    expect(Object.keys(configuredProviders(keyWithoutRegion))).toEqual(["offline"]);
  });
});

describe("provider health (per isolate)", () => {
  it("benches a provider for the cool-down, then lets it back", () => {
    resetHealth();
    const now = 1_000_000;
    markUnhealthy("openai", now);
    // docs/narration.md: a failing provider cools down for 60 s.
    expect(isHealthy("openai", now + 60_000 - 1)).toBe(false);
    expect(isHealthy("openai", now + 60_000)).toBe(true);
    expect(isHealthy("google", now)).toBe(true);
  });
});

describe("availability", () => {
  it("names what is missing for each unconfigured provider, and a provider cooling down after failures", async () => {
    resetHealth();
    const openAiOnly: object = { OPENAI_API_KEY: "sk" };
    const { synthesizers, missing } = providerSetup(openAiOnly);
    expect(missing).toEqual({
      "workers-ai": expect.stringMatching(/^no AI binding/),
      elevenlabs: "no ELEVENLABS_API_KEY configured",
      google: "no GOOGLE_TTS_API_KEY configured",
      azure: expect.stringMatching(/^no AZURE_SPEECH_KEY/),
      selfhosted: "no SELFHOSTED_TTS_BASE_URL configured",
    });
    const now = Date.now();
    markUnhealthy("openai", now);
    const { voices, default_voice } = await voiceStatuses(synthesizers, missing);
    expect(voices.find((v) => v.id === "nova")).toMatchObject({
      available: false,
      reason: expect.stringMatching(/^provider cooling down after failures \(until /),
    });
    expect(default_voice).toBe("en-US-female");
    resetHealth();
    expect((await voiceStatuses(synthesizers, missing)).default_voice).toBe("nova");
  });
});
