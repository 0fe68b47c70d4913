import { describe, expect, it } from "vitest";
import { wavFromInt16 } from "../engine/wav";
import { VOICES } from "../../kernel/voice-catalogue";
import { tonePcm16 } from "../../../test/support/fake-fetch";
import { workersAiSynthesizer, type AiRunner } from "./workers-ai";

const asteria = VOICES.find((v) => v.id === "asteria")!;
const thalia = VOICES.find((v) => v.id === "thalia")!;

function fakeAi(answer: () => Promise<Response>) {
  const calls: { model: string; inputs: Record<string, unknown>; raw: boolean }[] = [];
  const ai: AiRunner = {
    run(model, inputs, options) {
      calls.push({ model, inputs, raw: options.returnRawResponse });
      return answer();
    },
  };
  return { ai, calls };
}

describe("Workers AI adapter", () => {
  it("runs Deepgram Aura for linear16 WAVE at 24 kHz with the voice's speaker", async () => {
    const wav = wavFromInt16(tonePcm16(0.5, 24_000), 24_000);
    const { ai, calls } = fakeAi(async () => new Response(wav));
    const result = await workersAiSynthesizer(ai).synthesize("Hello.", asteria);
    expect(calls).toEqual([
      {
        model: "@cf/deepgram/aura-1",
        inputs: { text: "Hello.", speaker: "asteria", encoding: "linear16", container: "wav", sample_rate: 24_000 },
        raw: true,
      },
    ]);
    expect(result.ok && result.pcm.samples.length).toBe(12_000);
  });

  it("uses the Aura 2 model for Aura 2 voices", async () => {
    const { ai, calls } = fakeAi(async () => new Response(wavFromInt16(tonePcm16(0.1, 24_000), 24_000)));
    await workersAiSynthesizer(ai).synthesize("Hello.", thalia);
    expect(calls[0].model).toBe("@cf/deepgram/aura-2-en");
  });

  it("maps binding errors to reasons", async () => {
    const limited = fakeAi(() => Promise.reject(new Error("3040: Capacity temporarily exceeded")));
    expect(await workersAiSynthesizer(limited.ai).synthesize("Hi.", asteria)).toMatchObject({ ok: false, reason: "rate_limited" });
    const broken = fakeAi(() => Promise.reject(new Error("InferenceUpstreamError")));
    expect(await workersAiSynthesizer(broken.ai).synthesize("Hi.", asteria)).toMatchObject({ ok: false, reason: "upstream_5xx" });
    const status = fakeAi(async () => new Response("busy", { status: 503 }));
    expect(await workersAiSynthesizer(status.ai).synthesize("Hi.", asteria)).toMatchObject({ ok: false, reason: "upstream_5xx" });
  });

  it("gives up after its timeout", async () => {
    const { ai } = fakeAi(() => new Promise<Response>(() => {}));
    expect(await workersAiSynthesizer(ai, 20).synthesize("Hi.", asteria)).toMatchObject({ ok: false, reason: "timeout" });
  });

  it("rejects audio that is not a WAVE file", async () => {
    const { ai } = fakeAi(async () => new Response(new Uint8Array([0xff, 0xfb, 0x90, 0x00])));
    expect(await workersAiSynthesizer(ai).synthesize("Hi.", asteria)).toMatchObject({ ok: false, reason: "bad_audio" });
  });
});
