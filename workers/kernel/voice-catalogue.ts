/**
 * The provider catalogue as plain data: what each provider offers, what it costs and how much it
 * takes per request. No engine or adapter code here, so the API Worker can import it (GET /v1/voices)
 * without bundling the WebAssembly engine.
 */

import espeakLanguages from "./espeak-languages.json";
import type { LexiconMode } from "./lexicon";

export const PROVIDER_IDS = ["offline", "workers-ai", "openai", "elevenlabs", "google", "azure", "selfhosted"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export type Gender = "female" | "male" | "neutral";

/** Audio a provider can hand back that we can use without decoding MP3 (we only ever encode). */
export type RawFormat = "pcm" | "wav";

/**
 * How a voice is made, which is most of how natural it sounds: `neural` (a trained network: Aura,
 * the cloud providers' voices, a self-hosted Kokoro or Piper) or `formant` (eSpeak NG's rules:
 * intelligible, robotic). The selection rule prefers neural to formant before it looks at price.
 */
export const QUALITIES = ["neural", "formant"] as const;
export type Quality = (typeof QUALITIES)[number];

/** One voice as one provider offers it. The same voice id may be offered by several providers. */
export interface VoiceOffer {
  /** Our voice id, what clients pass as `voice`. */
  id: string;
  provider: ProviderId;
  /** The provider's own name for the voice (espeak voice, Aura speaker, OpenAI voice, ...). */
  native: string;
  /** BCP 47 language tag. */
  language: string;
  gender: Gender;
  style: string;
  /** Model the provider runs for this voice, where it has several. */
  model?: string;
  /** Price in USD per million characters when it differs from the provider's. */
  pricePerMillionChars?: number;
  /** Neural or formant: the provider's (every voice of a provider is made the same way). */
  quality: Quality;
}

export interface ProviderEntry {
  id: ProviderId;
  label: string;
  /** USD per million input characters (list price; the offline engine costs nothing). */
  pricePerMillionChars: number;
  /** Most characters one request may carry; longer text is split at sentence boundaries. */
  maxCharsPerRequest: number;
  /** Raw formats we ask for, in preference order. */
  formats: readonly RawFormat[];
  /** Pieces of one render synthesised at once: enough to hide a cloud provider's latency. */
  concurrency: number;
  /** How its voices are made (VoiceOffer.quality). */
  quality: Quality;
  /**
   * Its place among providers of the same quality, before price (workers/render/providers/select.ts): 0 Workers AI
   * (on the platform itself: no key, no other bill), 1 the cloud providers, 2 a self-hosted server
   * (one machine of the operator's, slower and less sure to be up), 3 the offline engine.
   */
  preference: number;
  /**
   * How it takes the pronunciation lexicon (kernel/lexicon.ts): eSpeak's phoneme input, SSML
   * <phoneme> and <sub>, or the alias in place of the word.
   */
  lexicon: LexiconMode;
}

export const PROVIDERS: Record<ProviderId, ProviderEntry> = {
  // The offline engine runs on the isolate's own thread: pieces in parallel gain nothing and each
  // eSpeak instance holds 16 MB, so one at a time.
  offline: {
    id: "offline",
    label: "eSpeak NG (WebAssembly, in the render Worker)",
    pricePerMillionChars: 0,
    maxCharsPerRequest: 1000,
    formats: ["wav"],
    concurrency: 1,
    quality: "formant",
    preference: 3,
    lexicon: "espeak",
  },
  // Deepgram documents 2,000 characters per Aura request; Workers AI lists $0.015 per 1k characters for aura-1.
  "workers-ai": {
    id: "workers-ai",
    label: "Workers AI (Deepgram Aura)",
    pricePerMillionChars: 15,
    maxCharsPerRequest: 2000,
    formats: ["wav"],
    concurrency: 4,
    quality: "neural",
    preference: 0,
    lexicon: "alias",
  },
  // tts-1 at $15 per million characters; the speech endpoint takes at most 4,096 characters.
  openai: {
    id: "openai",
    label: "OpenAI text-to-speech",
    pricePerMillionChars: 15,
    maxCharsPerRequest: 4096,
    formats: ["pcm"],
    concurrency: 4,
    quality: "neural",
    preference: 1,
    lexicon: "alias",
  },
  elevenlabs: {
    id: "elevenlabs",
    label: "ElevenLabs",
    pricePerMillionChars: 100,
    maxCharsPerRequest: 5000,
    formats: ["pcm"],
    concurrency: 4,
    quality: "neural",
    preference: 1,
    lexicon: "alias",
  },
  // Google limits a request to 5,000 bytes of input: 1,200 characters stays under it even at 4 bytes
  // each. Its Standard voices are parametric voices driven by a neural network (not WaveNet): neural,
  // the plainest of them, and the cheapest.
  google: {
    id: "google",
    label: "Google Cloud Text-to-Speech",
    pricePerMillionChars: 4,
    maxCharsPerRequest: 1200,
    formats: ["wav"],
    concurrency: 4,
    quality: "neural",
    preference: 1,
    lexicon: "ssml",
  },
  // Neural voices at $16 per million characters; a request may yield at most 10 minutes of audio.
  azure: {
    id: "azure",
    label: "Azure AI Speech",
    pricePerMillionChars: 16,
    maxCharsPerRequest: 3000,
    formats: ["pcm"],
    concurrency: 4,
    quality: "neural",
    preference: 1,
    lexicon: "ssml",
  },
  // An OpenAI-compatible speech server on the operator's machine or network (Kokoro-FastAPI, Speaches,
  // LocalAI): no price per character. Kokoro on a CPU voices a few times faster than real time, so a
  // request stays short enough to answer well within the request timeout, and two run at once.
  selfhosted: {
    id: "selfhosted",
    label: "Self-hosted speech server (OpenAI-compatible: Kokoro-FastAPI, Speaches, LocalAI)",
    pricePerMillionChars: 0,
    maxCharsPerRequest: 600,
    formats: ["wav"],
    concurrency: 2,
    quality: "neural",
    preference: 2,
    lexicon: "alias",
  },
};

/** With no voice asked for, the best available voice of this language and gender speaks. */
export const DEFAULT_LANGUAGE = "en-US";
export const DEFAULT_GENDER: Gender = "female";

const AURA_2 = { model: "@cf/deepgram/aura-2-en", pricePerMillionChars: 30 } as const;

/** A Kokoro voice of a self-hosted server, its language and gender read from its name. */
function kokoro(name: string, style: string): Omit<VoiceOffer, "quality">[] {
  const voice = kokoroVoice(name);
  return voice ? [{ id: name, provider: "selfhosted", native: name, ...voice, style }] : [];
}

const KOKORO_LANGUAGES: Record<string, string> = { a: "en-US", b: "en-GB", e: "es", f: "fr-FR", h: "hi", i: "it", j: "ja", p: "pt-BR", z: "zh-CN" };

/**
 * Language and gender of a voice named the Kokoro way ("af_heart": a = American English, f =
 * female); null for a name that is not.
 */
export function kokoroVoice(name: string): { language: string; gender: Gender } | null {
  const match = /^([a-z])([fm])_[a-z0-9_]+$/.exec(name);
  const language = match && KOKORO_LANGUAGES[match[1]];
  return language ? { language, gender: match[2] === "f" ? "female" : "male" } : null;
}

const OFFERS: readonly Omit<VoiceOffer, "quality">[] = [
  { id: "en-US-female", provider: "offline", native: "en-us+f3", language: "en-US", gender: "female", style: "plain" },
  { id: "en-US-male", provider: "offline", native: "en-us", language: "en-US", gender: "male", style: "plain" },
  { id: "en-GB-female", provider: "offline", native: "en+f2", language: "en-GB", gender: "female", style: "plain" },
  { id: "en-GB-male", provider: "offline", native: "en", language: "en-GB", gender: "male", style: "plain" },
  { id: "en-US-female", provider: "google", native: "en-US-Standard-C", language: "en-US", gender: "female", style: "plain" },
  { id: "en-US-male", provider: "google", native: "en-US-Standard-D", language: "en-US", gender: "male", style: "plain" },
  { id: "en-GB-female", provider: "google", native: "en-GB-Standard-A", language: "en-GB", gender: "female", style: "plain" },
  { id: "en-GB-male", provider: "google", native: "en-GB-Standard-B", language: "en-GB", gender: "male", style: "plain" },
  { id: "asteria", provider: "workers-ai", native: "asteria", model: "@cf/deepgram/aura-1", language: "en-US", gender: "female", style: "warm" },
  { id: "orion", provider: "workers-ai", native: "orion", model: "@cf/deepgram/aura-1", language: "en-US", gender: "male", style: "approachable" },
  { id: "athena", provider: "workers-ai", native: "athena", model: "@cf/deepgram/aura-1", language: "en-GB", gender: "female", style: "calm" },
  { id: "helios", provider: "workers-ai", native: "helios", model: "@cf/deepgram/aura-1", language: "en-GB", gender: "male", style: "professional" },
  { id: "thalia", provider: "workers-ai", native: "thalia", ...AURA_2, language: "en-US", gender: "female", style: "clear, energetic" },
  { id: "apollo", provider: "workers-ai", native: "apollo", ...AURA_2, language: "en-US", gender: "male", style: "confident, casual" },
  { id: "nova", provider: "openai", native: "nova", model: "tts-1", language: "en-US", gender: "female", style: "bright" },
  { id: "onyx", provider: "openai", native: "onyx", model: "tts-1", language: "en-US", gender: "male", style: "deep" },
  { id: "alloy", provider: "openai", native: "alloy", model: "tts-1", language: "en-US", gender: "neutral", style: "balanced" },
  { id: "fable", provider: "openai", native: "fable", model: "tts-1", language: "en-GB", gender: "male", style: "storyteller" },
  {
    id: "rachel",
    provider: "elevenlabs",
    native: "21m00Tcm4TlvDq8ikWAM",
    model: "eleven_multilingual_v2",
    language: "en-US",
    gender: "female",
    style: "calm narration",
  },
  {
    id: "adam",
    provider: "elevenlabs",
    native: "pNInz6obpgDQGcFmaJgB",
    model: "eleven_multilingual_v2",
    language: "en-US",
    gender: "male",
    style: "deep narration",
  },
  {
    id: "alice",
    provider: "elevenlabs",
    native: "Xb7hH8MSUJpSbSDYk0k2",
    model: "eleven_multilingual_v2",
    language: "en-GB",
    gender: "female",
    style: "confident news",
  },
  {
    id: "george",
    provider: "elevenlabs",
    native: "JBFqnCBsd6RMkjVDRZzb",
    model: "eleven_multilingual_v2",
    language: "en-GB",
    gender: "male",
    style: "warm storyteller",
  },
  { id: "jenny", provider: "azure", native: "en-US-JennyNeural", language: "en-US", gender: "female", style: "friendly" },
  { id: "guy", provider: "azure", native: "en-US-GuyNeural", language: "en-US", gender: "male", style: "newscast" },
  { id: "sonia", provider: "azure", native: "en-GB-SoniaNeural", language: "en-GB", gender: "female", style: "clear" },
  { id: "ryan", provider: "azure", native: "en-GB-RyanNeural", language: "en-GB", gender: "male", style: "cheerful" },
  // Kokoro-82M's English voices as Kokoro-FastAPI names them (a: American, b: British; f/m: female,
  // male); a server that lists others adds them (workers/render/providers/availability.ts).
  ...kokoro("af_heart", "warm, natural"),
  ...kokoro("af_bella", "lively"),
  ...kokoro("af_nicole", "soft, close"),
  ...kokoro("af_sarah", "clear"),
  ...kokoro("af_sky", "light"),
  ...kokoro("am_adam", "deep"),
  ...kokoro("am_michael", "steady"),
  ...kokoro("am_eric", "plain"),
  ...kokoro("am_liam", "bright"),
  ...kokoro("bf_emma", "calm"),
  ...kokoro("bf_isabella", "warm"),
  ...kokoro("bf_alice", "crisp"),
  ...kokoro("bm_george", "mature, storyteller"),
  ...kokoro("bm_lewis", "deep, measured"),
  ...kokoro("bm_daniel", "even"),
  // Every other language eSpeak NG has data for (espeak-languages.json, from text2wav's
  // espeak-ng-data): a female (variant f3) and a male voice each, loaded when first needed
  // (workers/render/engine/offline.ts, docs/narration.md "Languages").
  ...espeakLanguages.flatMap(({ language, voice, name }) => [
    { id: `${language}-female`, provider: "offline", native: `${voice}+f3`, language, gender: "female", style: `plain (${name})` } as const,
    { id: `${language}-male`, provider: "offline", native: voice, language, gender: "male", style: `plain (${name})` } as const,
  ]),
];

/** Every voice offer of the catalogue, each with its provider's quality. */
export const VOICES: readonly VoiceOffer[] = OFFERS.map((o) => ({ ...o, quality: PROVIDERS[o.provider].quality }));

/** Price per million characters of one offer. */
export function priceOf(offer: VoiceOffer): number {
  return offer.pricePerMillionChars ?? PROVIDERS[offer.provider].pricePerMillionChars;
}
