import * as v from "valibot";
import { MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import { postWithTimeout, REQUEST_TIMEOUT_MS, wavResult, type FetchFn } from "./http";
import { fail } from "./result";
import type { Synthesizer } from "./synthesizer";
import { escapeHtml as escapeXml } from "../../core/text";
import { ssmlText } from "../../kernel/lexicon";

/** Google's Text-to-Speech API; GOOGLE_TTS_BASE_URL replaces it (e.g. a regional endpoint). */
export const GOOGLE_TTS_BASE_URL = "https://texttospeech.googleapis.com/v1";
export const GOOGLE_TTS_URL = `${GOOGLE_TTS_BASE_URL}/text:synthesize`;

const SynthesizeResponse = v.object({ audioContent: v.string() });

/**
 * Google Cloud Text-to-Speech (text:synthesize) with LINEAR16, which Google returns as a base64 WAVE
 * file. The API key goes in the X-Goog-Api-Key header rather than the query, so it stays out of URL logs.
 * A piece that a lexicon entry touches goes as SSML with <phoneme alphabet="ipa"> and <sub>.
 */
export function googleSynthesizer(apiKey: string, fetchFn: FetchFn = fetch, timeoutMs = REQUEST_TIMEOUT_MS, baseUrl = GOOGLE_TTS_BASE_URL): Synthesizer {
  const url = `${baseUrl.replace(/\/+$/, "")}/text:synthesize`;
  return {
    async synthesize(text, offer, lexicon = []) {
      // SSML only when an entry occurs in this piece: the lexicon as <phoneme> and <sub> (SSML 1.1).
      const ssml = ssmlText(text, lexicon);
      const input = ssml === escapeXml(text) ? { text } : { ssml: `<speak>${ssml}</speak>` };
      const response = await postWithTimeout(
        fetchFn,
        url,
        {
          headers: { "X-Goog-Api-Key": apiKey, "Content-Type": "application/json; charset=utf-8" },
          body: JSON.stringify({
            input,
            voice: { languageCode: offer.language, name: offer.native },
            audioConfig: { audioEncoding: "LINEAR16", sampleRateHertz: MASTER_SAMPLE_RATE },
          }),
        },
        timeoutMs,
      );
      if (!(response instanceof Response)) return response;
      let parsed: unknown;
      try {
        parsed = await response.json();
      } catch (err) {
        return fail("bad_audio", `unreadable JSON: ${err instanceof Error ? err.message : String(err)}`);
      }
      const body = v.safeParse(SynthesizeResponse, parsed);
      if (!body.success) return fail("bad_audio", "response without audioContent");
      return wavResult(() => Uint8Array.from(atob(body.output.audioContent), (c) => c.charCodeAt(0)));
    },
  };
}
