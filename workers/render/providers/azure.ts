import { MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import { pcm16Result, postWithTimeout, REQUEST_TIMEOUT_MS, type FetchFn } from "./http";
import type { Synthesizer } from "./synthesizer";
import { ssmlText } from "../../kernel/lexicon";

/** The regional host of Azure AI Speech's text to speech; AZURE_SPEECH_BASE_URL replaces it. */
export function azureRegionalBaseUrl(region: string): string {
  return `https://${encodeURIComponent(region)}.tts.speech.microsoft.com`;
}

/**
 * Azure AI Speech over REST with SSML, asking for headerless 16-bit PCM at the master rate; the text
 * is XML-escaped and the lexicon goes in as <phoneme alphabet="ipa"> and <sub> (kernel/lexicon.ts).
 */
export function azureSynthesizer(apiKey: string, baseUrl: string, fetchFn: FetchFn = fetch, timeoutMs = REQUEST_TIMEOUT_MS): Synthesizer {
  const url = `${baseUrl.replace(/\/+$/, "")}/cognitiveservices/v1`;
  return {
    async synthesize(text, offer, lexicon = []) {
      const ssml =
        `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${offer.language}">` +
        `<voice name="${offer.native}">${ssmlText(text, lexicon)}</voice></speak>`;
      const response = await postWithTimeout(
        fetchFn,
        url,
        {
          headers: {
            "Ocp-Apim-Subscription-Key": apiKey,
            "Content-Type": "application/ssml+xml",
            "X-Microsoft-OutputFormat": "raw-24khz-16bit-mono-pcm",
            "User-Agent": "narration-render",
          },
          body: ssml,
        },
        timeoutMs,
      );
      return pcm16Result(response, MASTER_SAMPLE_RATE);
    },
  };
}
