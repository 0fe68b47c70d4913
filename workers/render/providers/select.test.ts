import { describe, expect, it } from "vitest";
import { VOICES, type ProviderId, type VoiceOffer } from "../../kernel/voice-catalogue";
import { candidates } from "./select";

const all = () => true;
const only =
  (...ids: ProviderId[]) =>
  (o: VoiceOffer) =>
    ids.includes(o.provider);
const summary = (offers: ReturnType<typeof candidates>) => offers?.map((o) => `${o.provider}/${o.id}`);

describe("provider selection", () => {
  it("every offer carries its quality: eSpeak is formant, every other engine neural", () => {
    for (const o of VOICES) expect(o.quality, `${o.provider}/${o.id}`).toBe(o.provider === "offline" ? "formant" : "neural");
  });

  it("with no voice asked for and the Workers AI binding present, Aura speaks (the cheaper Aura first)", () => {
    expect(summary(candidates(undefined, all))?.slice(0, 2)).toEqual(["workers-ai/asteria", "workers-ai/thalia"]);
  });

  it("with no voice asked for and nothing but eSpeak, eSpeak speaks", () => {
    expect(summary(candidates(undefined, only("offline")))).toEqual(["offline/en-US-female"]);
  });

  it("with no voice asked for, any neural voice comes before eSpeak, and cost orders the cloud providers", () => {
    expect(summary(candidates(undefined, only("offline", "elevenlabs", "openai", "google", "azure")))).toEqual([
      "google/en-US-female",
      "openai/nova",
      "azure/jenny",
      "elevenlabs/rachel",
      "offline/en-US-female",
    ]);
  });

  it("puts the best available offer of the requested voice first: neural before formant, then the cheapest", () => {
    // en-US-female: offline ($0, formant) and Google ($4, neural).
    expect(summary(candidates("en-US-female", all))?.slice(0, 2)).toEqual(["google/en-US-female", "offline/en-US-female"]);
    expect(summary(candidates("en-US-female", only("offline", "openai")))?.[0]).toBe("offline/en-US-female");
  });

  it("falls back to equivalent voices (same language and gender): neural first, Workers AI before the cloud, cheapest first, eSpeak last", () => {
    expect(summary(candidates("nova", all))).toEqual([
      "openai/nova",
      "workers-ai/asteria",
      "workers-ai/thalia",
      "google/en-US-female",
      "azure/jenny",
      "elevenlabs/rachel",
      "selfhosted/af_heart",
      "selfhosted/af_bella",
      "selfhosted/af_nicole",
      "selfhosted/af_sarah",
      "selfhosted/af_sky",
      "offline/en-US-female",
    ]);
  });

  it("with no voice asked for and a self-hosted server besides eSpeak, the server's af_heart speaks", () => {
    expect(summary(candidates(undefined, only("offline", "selfhosted")))?.[0]).toBe("selfhosted/af_heart");
    expect(summary(candidates(undefined, only("offline", "selfhosted", "openai")))?.[0]).toBe("openai/nova");
  });

  it("leaves out unavailable offers", () => {
    expect(summary(candidates("nova", only("workers-ai")))).toEqual(["workers-ai/asteria", "workers-ai/thalia"]);
    expect(candidates("nova", only())).toEqual([]);
    expect(summary(candidates("nova", (o) => o.id !== "asteria" && o.provider === "workers-ai"))).toEqual(["workers-ai/thalia"]);
  });

  it("returns null for a voice outside the catalogue", () => {
    expect(candidates("no-such-voice", all)).toBeNull();
  });
});
