import { MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import { pcm16Result, postWithTimeout, reasonForStatus, REQUEST_TIMEOUT_MS, type FetchFn } from "./http";
import type { Synthesizer } from "./synthesizer";
import { aliasText } from "../../kernel/lexicon";

/** ElevenLabs' API; ELEVENLABS_BASE_URL replaces it (a regional endpoint). */
export const ELEVENLABS_BASE_URL = "https://api.elevenlabs.io/v1";

/**
 * ElevenLabs text-to-speech, asking for raw 16-bit PCM at the master rate (`output_format=pcm_24000`).
 * The lexicon's aliases replace their words: eleven_multilingual_v2 reads no phoneme tags, and a
 * pronunciation dictionary would have to be uploaded and kept in step with ours.
 */
export function elevenLabsSynthesizer(apiKey: string, fetchFn: FetchFn = fetch, timeoutMs = REQUEST_TIMEOUT_MS, baseUrl = ELEVENLABS_BASE_URL): Synthesizer {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    async synthesize(text, offer, lexicon = []) {
      const url = `${base}/text-to-speech/${encodeURIComponent(offer.native)}?output_format=pcm_${MASTER_SAMPLE_RATE}`;
      const response = await postWithTimeout(
        fetchFn,
        url,
        {
          headers: { "xi-api-key": apiKey, "Content-Type": "application/json", Accept: "audio/pcm" },
          body: JSON.stringify({ text: aliasText(text, lexicon), model_id: offer.model ?? "eleven_multilingual_v2" }),
        },
        timeoutMs,
        // An unknown voice id answers 404, or 400 with detail.status "voice_not_found".
        (status, body) => (status === 404 || /voice_not_found/.test(body) ? "invalid_voice" : reasonForStatus(status)),
      );
      return pcm16Result(response, MASTER_SAMPLE_RATE);
    },
  };
}
