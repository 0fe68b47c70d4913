import * as v from "valibot";
import { loggableError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { renderService, voiceStatusOf, type VoiceCatalogueStatus } from "../../kernel/render-contract";
import { PROVIDER_IDS, VOICES } from "../../kernel/voice-catalogue";
import { QualityField } from "../fields";
import { LanguageField, speaks } from "../../kernel/language";

const Voice = named(
  "Voice",
  v.object({
    id: v.pipe(v.string(), v.description("Voice id to pass as `voice`; one id may be offered by several providers.")),
    provider: v.pipe(v.picklist(PROVIDER_IDS), v.description("Provider (engine) offering the voice.")),
    language: v.pipe(v.string(), v.description("BCP 47 language tag.")),
    gender: v.pipe(v.picklist(["female", "male", "neutral"]), v.description("Gender of the voice.")),
    style: v.pipe(v.string(), v.description("Speaking style.")),
    quality: QualityField,
    price_per_million_chars: v.pipe(v.number(), v.description("List price in USD per million characters.")),
    max_chars_per_request: v.pipe(v.number(), v.description("Longer text is split at sentence boundaries.")),
    default: v.pipe(v.boolean(), v.description("True for the one offer that speaks now when a request names no voice.")),
    available: v.pipe(
      v.boolean(),
      v.description("Whether a render can use this offer now: its provider is configured in the render Worker and not cooling down after failures."),
    ),
    reason: v.pipe(
      v.nullable(v.string()),
      v.description('Why the offer cannot be used now (e.g. "no OPENAI_API_KEY configured", "provider cooling down after failures"); null when it can.'),
    ),
  }),
);

const VoicesResponse = named(
  "VoicesResponse",
  v.object({
    default_voice: v.pipe(
      v.nullable(v.string()),
      v.description(
        "The voice that speaks now when a request names none: the best available voice of the default language and gender (en-US, female), neural before formant; null when no provider is available.",
      ),
    ),
    default_provider: v.pipe(v.nullable(v.picklist(PROVIDER_IDS)), v.description("The provider of default_voice.")),
    voices: v.pipe(
      v.array(Voice),
      v.description("Every voice offer, in the order the selection rule prefers them: neural first, then by provider, then cheapest."),
    ),
  }),
);

type VoicesBody = v.InferOutput<typeof VoicesResponse>;

/** The catalogue when the render Worker cannot say what it can use: nothing is known to be available. */
function unknownAvailability(): VoicesBody {
  const reason = "the render service did not answer";
  return {
    default_voice: null,
    default_provider: null,
    voices: VOICES.map((o) => voiceStatusOf(o, false, reason)),
  };
}

export const getVoices = route({
  method: "GET",
  path: "/v1/voices",
  tag: "narration",
  summary: "The voice catalogue: each voice with its provider, quality and price, and whether it can be used now",
  description:
    "Availability comes from the render Worker, which holds the provider keys (RenderService.voices): a provider without its key, " +
    "without the AI binding (Workers AI) or without a configured server (self-hosted) is unavailable, as is one cooling down after failures. " +
    "With no voice asked for, a render speaks with the best available neural voice of the default language and gender " +
    "(Workers AI's Aura, then the cloud providers, then a self-hosted server) and with eSpeak only when nothing else is available; " +
    "when a provider fails it falls back to an equivalent voice (same language and gender).",
  auth: "none",
  rateLimit: "read",
  query: v.object({
    language: v.optional(v.pipe(LanguageField, v.description("Only the voices that speak this language (BCP 47; `de` lists de-DE and de-AT voices alike)."))),
  }),
  responses: { 200: { description: "The catalogue with availability", schema: VoicesResponse } },
  async handle({ env, query }) {
    const status: VoiceCatalogueStatus | null = await Promise.resolve()
      .then(() => renderService(env).voices())
      .catch((err: unknown) => {
        console.warn(`GET /v1/voices: the render service did not answer: ${loggableError(err)}`);
        return null;
      });
    const body = status ?? unknownAvailability();
    const { language } = query;
    const voices = language ? body.voices.filter((o) => speaks(o, language)) : body.voices;
    // Availability changes with configuration and provider health: a short shared cache only.
    return Response.json({ ...body, voices }, { headers: { "Cache-Control": "public, max-age=30" } });
  },
});
