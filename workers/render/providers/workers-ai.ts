import { MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import { readBytes, reasonForStatus, REQUEST_TIMEOUT_MS, statusFailure, wavResult } from "./http";
import { fail } from "./result";
import type { Synthesizer } from "./synthesizer";
import { aliasText } from "../../kernel/lexicon";

/** The part of the AI binding this adapter uses. */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options: { returnRawResponse: true; signal?: AbortSignal }): Promise<Response>;
}

/**
 * Workers AI through the AI binding: Deepgram Aura (aura-1, aura-2-en) asked for linear16 in a WAVE
 * container at the master rate. MeloTTS is not offered: it only returns MP3, and nothing here
 * decodes MP3. Aura takes plain text: the lexicon's aliases replace their words.
 */
export function workersAiSynthesizer(ai: AiRunner, timeoutMs = REQUEST_TIMEOUT_MS): Synthesizer {
  return {
    async synthesize(text, offer, lexicon = []) {
      const model = offer.model ?? "@cf/deepgram/aura-1";
      const inputs = { text: aliasText(text, lexicon), speaker: offer.native, encoding: "linear16", container: "wav", sample_rate: MASTER_SAMPLE_RATE };
      const signal = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await Promise.race([
          ai.run(model, inputs, { returnRawResponse: true, signal }),
          new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
        ]);
      } catch (err) {
        if (signal.aborted) return fail("timeout", `no answer within ${timeoutMs} ms`);
        return fail(classifyAiError(err), err instanceof Error ? err.message : String(err));
      }
      // An unknown speaker surfaces as a thrown error (classifyAiError), so a status maps plainly.
      if (!response.ok) return statusFailure(response, reasonForStatus);
      const bytes = await readBytes(response);
      if (!(bytes instanceof Uint8Array)) return bytes;
      return wavResult(() => bytes);
    },
  };
}

/** The binding throws on errors; its messages name capacity and rate limits (codes 3040, 3036). */
function classifyAiError(err: unknown) {
  const message = err instanceof Error ? err.message : String(err);
  if (/rate limit|capacity|3036|3040|429/i.test(message)) return "rate_limited";
  if (/speaker|voice/i.test(message)) return "invalid_voice";
  return "upstream_5xx";
}
