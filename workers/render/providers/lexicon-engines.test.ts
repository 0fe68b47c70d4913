import { store } from "../../../test/support/render-store";
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { probeAudio } from "../../../test/support/audio-probe";
import { fakeFetch } from "../../../test/support/fake-fetch";
import { realSpeech, selfhostedTtsUrl } from "../../../test/support/selfhosted-tts";
import { audioObjectPath } from "../../kernel/audio-objects";
import type { LexiconEntry } from "../../kernel/lexicon";
import { VOICES, type ProviderId } from "../../kernel/voice-catalogue";
import { espeakPhonemes, offlineSynthesizer } from "../engine/offline";
import { renderText } from "../pipeline/render";
import { encodeStored } from "../pipeline/store";
import { azureSynthesizer } from "./azure";
import { elevenLabsSynthesizer } from "./elevenlabs";
import { googleSynthesizer } from "./google";
import { resetHealth } from "./health";
import type { FetchFn } from "./http";
import { openAiSynthesizer } from "./openai";
import { forgetVoiceLists, selfHostedSynthesizer } from "./selfhosted";
import type { Synthesizer } from "./synthesizer";
import { workersAiSynthesizer, type AiRunner } from "./workers-ai";

// Issue 31, item 4: measured, not assumed. What eSpeak actually says for a word with an entry (its
// own phoneme output), what each cloud adapter sends (the request at the network boundary), and the
// loudness of every engine's audio, taken from the audio each test provider returns: real speech
// from the loopback speech server (scripts/selfhosted-tts-setup.mjs), not tones.

const nguyen: LexiconEntry = { grapheme: "Nguyen", phoneme: "ˈŋwɪn", alias: "Win" };
const sql: LexiconEntry = { grapheme: "SQL", phoneme: null, alias: "sequel" };
const offerOf = (provider: ProviderId, id: string) => VOICES.find((v) => v.provider === provider && v.id === id)!;

beforeEach(() => {
  resetHealth();
  forgetVoiceLists();
});

describe("what eSpeak NG says with an entry (its own phoneme output)", () => {
  it("says the entry's IPA for the word, through phoneme input, and the rest of the sentence as before", async () => {
    const text = "Ms Nguyen visited Worcester.";
    const before = (await espeakPhonemes(text, "en-us")).split(/\s+/);
    const after = (await espeakPhonemes(text, "en-us", [nguyen])).split(/\s+/);
    expect(before).toHaveLength(4);
    expect(after).toHaveLength(4);
    // eSpeak's own reading of the name, then the lexicon's: /ŋwɪn/ in its mnemonics (N, w, I, n).
    expect(before[1]).toBe("n'u:jEn");
    expect(after[1].replace("'", "")).toBe("NwIn");
    expect([after[0], after[2], after[3]]).toEqual([before[0], before[2], before[3]]);
  });

  it("says the alias of an entry without a transcription it can read, and nothing else changes", async () => {
    const before = await espeakPhonemes("They query SQL daily.", "en-us");
    const after = await espeakPhonemes("They query SQL daily.", "en-us", [sql]);
    expect(after).toBe(await espeakPhonemes("They query sequel daily.", "en-us"));
    expect(after).not.toBe(before);
  });
});

describe("what each cloud adapter sends with an entry (at the network boundary)", () => {
  const text = "Ms Nguyen knows SQL.";
  const lexicon = [nguyen, sql];
  const aliased = "Ms Win knows sequel.";
  const ssml = 'Ms <phoneme alphabet="ipa" ph="ˈŋwɪn">Nguyen</phoneme> knows <sub alias="sequel">SQL</sub>.';
  const silence = () => new Response(new Uint8Array(4800));

  it("OpenAI: the alias in `input`", async () => {
    const far = fakeFetch(silence);
    await openAiSynthesizer("sk", far.fetch).synthesize(text, offerOf("openai", "nova"), lexicon);
    expect(JSON.parse(far.sent[0].body).input).toBe(aliased);
  });

  it("ElevenLabs: the alias in `text`", async () => {
    const far = fakeFetch(silence);
    await elevenLabsSynthesizer("el", far.fetch).synthesize(text, offerOf("elevenlabs", "rachel"), lexicon);
    expect(JSON.parse(far.sent[0].body).text).toBe(aliased);
  });

  it("Workers AI (Aura): the alias in the model's `text`", async () => {
    const texts: unknown[] = [];
    const ai: AiRunner = {
      async run(_model, inputs) {
        texts.push(inputs.text);
        return new Response("no", { status: 503 });
      },
    };
    await workersAiSynthesizer(ai).synthesize(text, offerOf("workers-ai", "asteria"), lexicon);
    expect(texts).toEqual([aliased]);
  });

  it("Google: SSML with <phoneme alphabet=ipa> and <sub> in `input.ssml`, plain `input.text` for a piece no entry touches", async () => {
    const far = fakeFetch(() => Response.json({ nope: true }));
    const google = googleSynthesizer("g", far.fetch);
    await google.synthesize(text, offerOf("google", "en-US-female"), lexicon);
    await google.synthesize("Nothing to change here.", offerOf("google", "en-US-female"), lexicon);
    expect(JSON.parse(far.sent[0].body).input).toEqual({ ssml: `<speak>${ssml}</speak>` });
    expect(JSON.parse(far.sent[1].body).input).toEqual({ text: "Nothing to change here." });
  });

  it("Azure: the same SSML inside the voice element", async () => {
    const far = fakeFetch(silence);
    await azureSynthesizer("az", "https://speech.azure.test", far.fetch).synthesize(text, offerOf("azure", "jenny"), lexicon);
    expect(far.sent[0].body).toBe(
      `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US"><voice name="en-US-JennyNeural">${ssml}</voice></speak>`,
    );
  });

  it("a self-hosted server (real, on loopback): the alias in `input`", async () => {
    const sent: string[] = [];
    const fetchFn: FetchFn = (url, init) => {
      sent.push(JSON.parse(String(init.body)).input);
      return fetch(url, init);
    };
    const result = await selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl(), fetchFn }).synthesize(text, offerOf("selfhosted", "af_heart"), lexicon);
    expect(result.ok).toBe(true);
    expect(sent).toEqual([aliased]);
  });
});

const SPOKEN = "The council met on Tuesday evening to discuss the new cycling lanes. Residents had waited two years for a decision.";

const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));

/** Every engine, each answering with real speech in the form its API returns it. */
async function engines(): Promise<[name: string, voice: string, provider: ProviderId, synthesizers: Partial<Record<ProviderId, Synthesizer>>][]> {
  const pcm = await realSpeech(SPOKEN, "pcm");
  const wav = await realSpeech(SPOKEN, "wav");
  const answer = (body: () => BodyInit) => fakeFetch(() => new Response(body())).fetch;
  const aura: AiRunner = { run: async () => new Response(wav.slice()) };
  return [
    ["eSpeak NG (offline)", "en-US-male", "offline", { offline: offlineSynthesizer }],
    ["Workers AI (Aura, WAVE 22,050 Hz)", "asteria", "workers-ai", { "workers-ai": workersAiSynthesizer(aura) }],
    [
      "OpenAI (raw PCM 24 kHz)",
      "nova",
      "openai",
      {
        openai: openAiSynthesizer(
          "sk",
          answer(() => pcm.slice()),
        ),
      },
    ],
    [
      "ElevenLabs (raw PCM 24 kHz)",
      "rachel",
      "elevenlabs",
      {
        elevenlabs: elevenLabsSynthesizer(
          "el",
          answer(() => pcm.slice()),
        ),
      },
    ],
    ["Google (base64 WAVE)", "en-US-female", "google", { google: googleSynthesizer("g", fakeFetch(() => Response.json({ audioContent: base64(wav) })).fetch) }],
    [
      "Azure (raw PCM 24 kHz)",
      "jenny",
      "azure",
      {
        azure: azureSynthesizer(
          "az",
          "https://speech.azure.test",
          answer(() => pcm.slice()),
        ),
      },
    ],
    ["a self-hosted server (real, on loopback)", "af_heart", "selfhosted", { selfhosted: selfHostedSynthesizer({ baseUrl: selfhostedTtsUrl() }) }],
  ];
}

describe("every engine's audio meets the same loudness: -16 LUFS ±1 integrated, true peak at most -1 dBTP (ffmpeg ebur128)", () => {
  it("holds for the MP3 and the WAV of each engine, from the speech each returns", async () => {
    for (const [name, voice, provider, synthesizers] of await engines()) {
      const result = await renderText(store, { text: SPOKEN, voice }, synthesizers);
      expect(result.provider, name).toBe(provider);
      await encodeStored(store, result.key, "wav");
      for (const format of ["mp3", "wav"] as const) {
        const object = await env.AUDIO.get(audioObjectPath(result.key, format));
        const probe = await probeAudio(await object!.arrayBuffer(), format);
        expect(probe.duration, `${name} ${format} duration`).toBeGreaterThan(3);
        expect(Math.abs(probe.integrated_lufs - -16), `${name} ${format} loudness ${probe.integrated_lufs}`).toBeLessThanOrEqual(1);
        expect(probe.true_peak_dbtp, `${name} ${format} true peak`).toBeLessThanOrEqual(-1);
      }
    }
  }, 120_000);
});
