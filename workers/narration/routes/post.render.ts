import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { FallbackField, MAX_RENDER_CHARS, QualityField, RequestedVoiceField, renderFailure, VoiceField } from "../fields";
import { MAX_NARRATED_CHARS, renderService, renderTenant } from "../../kernel/render-contract";
import { AudioUrlFields, audioUrls } from "../../kernel/public-urls";
import { LanguageField, LanguageFields } from "../../kernel/language";
import { narrationLanguage } from "../../kernel/language-detect";

const RenderRequest = named(
  "RenderRequest",
  v.object({
    text: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, "text must not be empty"),
      v.maxLength(MAX_RENDER_CHARS),
      v.description(
        `Text to narrate, at most ${MAX_RENDER_CHARS} characters (422 beyond): one segment, about 13 minutes of speech, which renders within a synchronous request. Longer texts, up to ${MAX_NARRATED_CHARS} characters, go through POST /v1/jobs.`,
      ),
    ),
    voice: v.optional(VoiceField),
    language: v.optional(LanguageField),
  }),
);

const RenderResponse = named(
  "RenderResponse",
  v.object({
    key: v.pipe(v.string(), v.description("Cache key: SHA-256 hex of provider, voice and normalised text.")),
    provider: v.pipe(v.string(), v.description("The engine (provider) that spoke: rendered, or first rendered, the audio.")),
    voice: v.pipe(v.string(), v.description("The voice that spoke.")),
    quality: QualityField,
    requested_voice: RequestedVoiceField,
    ...LanguageFields,
    fallback: FallbackField,
    cached: v.pipe(v.boolean(), v.description("True when the audio already existed and no provider was called.")),
    ...AudioUrlFields,
    duration_seconds: v.pipe(v.number(), v.description("Real duration of the audio.")),
  }),
);

export const postRender = route({
  method: "POST",
  path: "/v1/render",
  tag: "narration",
  summary: "Render text to audio synchronously (cached by provider, voice and text)",
  description:
    "Requires the API key (query api_key, header x-service-key or x-legacy-key); 401 without it. " +
    "A second render of the same text and voice is answered from the cache without calling a provider.",
  auth: "api_key",
  body: RenderRequest,
  responses: {
    200: { description: "The audio and its URLs", schema: RenderResponse },
    503: { description: "No provider available for the voice", headers: { "Retry-After": "seconds" } },
  },
  async handle({ env, body, caller }) {
    // A publisher's key renders with that publisher's pronunciation lexicon over the global one, and
    // reuses only that publisher's stored audio (issue 40 item 3).
    const publisher = caller.kind === "publisher" ? caller.publisher : null;
    const spoken = narrationLanguage(body.language, body.text);
    const tenant = renderTenant(null, publisher);
    const result = await renderService(env).render({ text: body.text, voice: body.voice, language: spoken.language, publisher, tenant }).catch(renderFailure);
    const response: v.InferOutput<typeof RenderResponse> = {
      key: result.key,
      provider: result.provider,
      voice: result.voice,
      quality: result.quality,
      requested_voice: result.requested_voice,
      ...spoken,
      fallback: result.fallback,
      cached: result.cached,
      // Raw text is the caller's own: its URL is a capability, never its content key (issue 40 item 2).
      ...audioUrls(env, result.key, "private"),
      duration_seconds: result.duration_seconds,
    };
    return Response.json(response);
  },
});
