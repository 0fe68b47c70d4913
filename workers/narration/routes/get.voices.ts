import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { DEFAULT_VOICE, PROVIDER_IDS, priceOf, PROVIDERS, VOICES } from "../../kernel/voice-catalogue";

const Voice = named(
  "Voice",
  v.object({
    id: v.pipe(v.string(), v.description("Voice id to pass as `voice`; one id may be offered by several providers.")),
    provider: v.pipe(v.picklist(PROVIDER_IDS), v.description("Provider offering the voice.")),
    language: v.pipe(v.string(), v.description("BCP 47 language tag.")),
    gender: v.pipe(v.picklist(["female", "male", "neutral"]), v.description("Gender of the voice.")),
    style: v.pipe(v.string(), v.description("Speaking style.")),
    price_per_million_chars: v.pipe(v.number(), v.description("List price in USD per million characters.")),
    max_chars_per_request: v.pipe(v.number(), v.description("Longer text is split at sentence boundaries.")),
    default: v.pipe(v.boolean(), v.description("Whether this is the voice used when a request names none.")),
  }),
);

const VoicesResponse = named(
  "VoicesResponse",
  v.object({
    default_voice: v.pipe(v.string(), v.description("Voice id used when a request names none.")),
    voices: v.pipe(v.array(Voice), v.description("Every voice offer, cheapest first.")),
  }),
);

type VoicesBody = v.InferOutput<typeof VoicesResponse>;

// The catalogue is static data, so the body is built once per isolate.
const body: VoicesBody = {
  default_voice: DEFAULT_VOICE,
  voices: VOICES.map((o) => ({
    id: o.id,
    provider: o.provider,
    language: o.language,
    gender: o.gender,
    style: o.style,
    price_per_million_chars: priceOf(o),
    max_chars_per_request: PROVIDERS[o.provider].maxCharsPerRequest,
    default: o.id === DEFAULT_VOICE,
  })).sort((a, b) => a.price_per_million_chars - b.price_per_million_chars),
};

export const getVoices = route({
  method: "GET",
  path: "/v1/voices",
  tag: "narration",
  summary: "The voice catalogue: voice id, provider, language, gender, style and price",
  description:
    "A render picks, for the requested voice, the cheapest available provider offering it; when that provider fails it falls back to an equivalent voice (same language and gender).",
  auth: "none",
  rateLimit: "read",
  responses: { 200: { description: "The catalogue", schema: VoicesResponse } },
  handle() {
    return Response.json(body, { headers: { "Cache-Control": "public, max-age=300" } });
  },
});
