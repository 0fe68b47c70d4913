import { pcm16Result, postWithTimeout, REQUEST_TIMEOUT_MS, type FetchFn } from "./http";
import type { Synthesizer } from "./synthesizer";
import { aliasText } from "../../kernel/lexicon";

/** OpenAI's API; OPENAI_BASE_URL replaces it (an OpenAI-compatible server answers the same path). */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
export const OPENAI_SPEECH_URL = `${OPENAI_BASE_URL}/audio/speech`;

/** `response_format: "pcm"` is raw 24 kHz 16-bit signed little-endian mono, per OpenAI's API reference. */
const OPENAI_PCM_RATE = 24_000;

/** OpenAI text-to-speech (POST /v1/audio/speech), asking for raw PCM; the lexicon's aliases replace their words. */
export function openAiSynthesizer(apiKey: string, fetchFn: FetchFn = fetch, timeoutMs = REQUEST_TIMEOUT_MS, baseUrl = OPENAI_BASE_URL): Synthesizer {
  const url = `${baseUrl.replace(/\/+$/, "")}/audio/speech`;
  return {
    async synthesize(text, offer, lexicon = []) {
      const response = await postWithTimeout(
        fetchFn,
        url,
        {
          headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
          body: JSON.stringify({ model: offer.model ?? "tts-1", input: aliasText(text, lexicon), voice: offer.native, response_format: "pcm" }),
        },
        timeoutMs,
      );
      return pcm16Result(response, OPENAI_PCM_RATE);
    },
  };
}
