import { ValidationError } from "../core/errors";
import { renderService } from "../kernel/render-contract";
import { VOICES } from "../kernel/voice-catalogue";

/** The 422 of a voice nobody offers, at `loc` (where the request named it). */
export function unknownVoice(loc: (string | number)[] = ["body", "voice"]): ValidationError {
  return new ValidationError([{ loc, msg: "unknown voice; see GET /v1/voices", type: "unknown_voice" }]);
}

/**
 * Refuses, before anything is stored or queued, a voice that neither the catalogue nor the render Worker
 * offers (a self-hosted server may list voices beyond the catalogue: GET /v1/voices shows them). A job
 * for such a voice could only fail, and its failure would carry the caller's text (issue 40 item 4).
 * The render Worker is asked only for a voice outside the catalogue; when it does not answer, the voice
 * is refused too.
 */
export async function requireKnownVoice(env: object, voice: string | null | undefined, loc?: (string | number)[]): Promise<void> {
  if (voice === null || voice === undefined || VOICES.some((o) => o.id === voice)) return;
  const listed = await renderService(env)
    .voices()
    .then((c) => c.voices.some((o) => o.id === voice))
    .catch(() => false);
  if (!listed) throw unknownVoice(loc);
}
