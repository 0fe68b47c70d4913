import { store } from "../../../test/support/render-store";
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { audioObjects, database } from "../../db/index";
import { tonePcm16 } from "../../../test/support/fake-fetch";
import { wavFromInt16 } from "../engine/wav";
import { isHealthy, resetHealth } from "../providers/health";
import { configuredProviders } from "../providers/registry";
import type { AiRunner } from "../providers/workers-ai";
import { renderText } from "./render";

/** An AI binding whose Aura answers with `answer` and records the speakers asked for. */
function fakeAi(answer: () => Promise<Response>) {
  const speakers: string[] = [];
  const ai: AiRunner = {
    run(_model, inputs) {
      speakers.push(String(inputs.speaker));
      return answer();
    },
  };
  return { ai, speakers };
}

const aura = () => fakeAi(async () => new Response(wavFromInt16(tonePcm16(0.5, 24_000), 24_000)));

beforeEach(() => resetHealth());

describe("the default voice is the best available one (issue 31, item 1)", () => {
  it("with the Workers AI binding present, no voice asked for resolves to Aura, and the response says so", async () => {
    const { ai, speakers } = aura();
    const result = await renderText(store, { text: "A natural voice by default." }, configuredProviders({ AI: ai }));
    expect(result).toMatchObject({ provider: "workers-ai", voice: "asteria", quality: "neural", requested_voice: null, fallback: false, cached: false });
    expect(speakers).toEqual(["asteria"]);
    const row = await database(env).select().from(audioObjects).where(eq(audioObjects.key, result.key)).get();
    expect(row).toMatchObject({ provider: "workers-ai", voice: "asteria", requestedVoice: null, fallback: false });
  });

  it("with nothing but eSpeak, no voice asked for resolves to eSpeak, and the response says it is a formant voice and no fallback", async () => {
    const result = await renderText(store, { text: "Only the offline engine here." }, configuredProviders({}));
    expect(result).toMatchObject({ provider: "offline", voice: "en-US-female", quality: "formant", requested_voice: null, fallback: false });
  });

  it("says fallback when Aura fails and eSpeak speaks instead, and when the voice asked for is not the one that spoke", async () => {
    const { ai } = fakeAi(async () => new Response("busy", { status: 503 }));
    const fell = await renderText(store, { text: "Aura is down." }, configuredProviders({ AI: ai }));
    expect(fell).toMatchObject({ provider: "offline", voice: "en-US-female", quality: "formant", requested_voice: null, fallback: true });
    expect(isHealthy("workers-ai")).toBe(false);
    const row = await database(env).select().from(audioObjects).where(eq(audioObjects.key, fell.key)).get();
    expect(row).toMatchObject({ requestedVoice: null, fallback: true });

    // nova without an OpenAI key: an equivalent voice speaks, and that is a fallback.
    const other = await renderText(store, { text: "Nova was asked for.", voice: "nova" }, configuredProviders({}));
    expect(other).toMatchObject({ provider: "offline", voice: "en-US-female", requested_voice: "nova", fallback: true });
  });

  it("does not let cached eSpeak audio stand in for a neural voice that has become available", async () => {
    const text = "Rendered once offline, then with Aura.";
    const first = await renderText(store, { text }, configuredProviders({}));
    expect(first.provider).toBe("offline");
    const { ai } = aura();
    const second = await renderText(store, { text }, configuredProviders({ AI: ai }));
    expect(second).toMatchObject({ provider: "workers-ai", cached: false });
    // Asked again with Aura available, the Aura audio is the cache hit.
    expect(await renderText(store, { text }, configuredProviders({ AI: ai }))).toEqual({
      ...second,
      cached: true,
      characters_synthesized: 0,
      paragraphs_reused: 1,
      paragraphs_encoded: 0,
    });
    // The voice asked for by name is still answered from its own cache.
    const named = await renderText(store, { text, voice: "en-US-female" }, configuredProviders({}));
    expect(named).toMatchObject({ key: first.key, cached: true, requested_voice: "en-US-female", fallback: false });
  });
});
