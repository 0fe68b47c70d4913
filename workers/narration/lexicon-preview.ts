import { audioObjectPath } from "../kernel/audio-objects";
import { renderService, renderTenant } from "../kernel/render-contract";
import { renderFailure } from "./fields";

/**
 * A sentence as a publisher's lexicon makes it sound (docs/publishers.md "Pronunciation by ear"):
 * rendered by the render Worker with the publisher's lexicon over the global one, as an article of
 * theirs would be, and answered as MP3. The render is cached by text, voice and lexicon like any other,
 * so pressing "hear it" twice costs one synthesis, within the publisher's own audio (issue 40 item 3);
 * the object narrates no article, so it is nobody's secret.
 */
export async function lexiconPreview(env: Pick<Env, "AUDIO">, publisher: string, text: string, voice?: string): Promise<Response> {
  const result = await renderService(env)
    .render({ text, voice, publisher, tenant: renderTenant(null, publisher) })
    .catch(renderFailure);
  const object = await env.AUDIO.get(audioObjectPath(result.key, "mp3"));
  if (!object) throw new Error("the rendered preview is not in the store");
  return new Response(object.body, {
    headers: {
      "Content-Type": "audio/mpeg",
      "Content-Length": String(object.size),
      "Cache-Control": "private, no-store",
      "X-Voice": result.voice,
    },
  });
}
