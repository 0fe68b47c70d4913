import * as v from "valibot";
import { binding, configurationIssues, optionalHttpUrl, text, watermarkKey } from "../core/config-fields";

/**
 * The render Worker's configuration: the provider keys it reads and the bindings it needs, checked
 * once per isolate. A cloud provider is available only when its key (and Azure's region) is set.
 */
const PARTS = {
  providers: {
    OPENAI_API_KEY: text,
    ELEVENLABS_API_KEY: text,
    GOOGLE_TTS_API_KEY: text,
    AZURE_SPEECH_KEY: text,
    AZURE_SPEECH_REGION: text,
    // Endpoints (docs/narration.md "Providers"): OPENAI_BASE_URL also points the OpenAI adapter at an OpenAI-compatible
    // speech server (Kokoro-FastAPI, openedai-speech, LocalAI); the others pick a region or a proxy.
    // Empty: the provider's public endpoint.
    OPENAI_BASE_URL: optionalHttpUrl,
    ELEVENLABS_BASE_URL: optionalHttpUrl,
    GOOGLE_TTS_BASE_URL: optionalHttpUrl,
    /** Replaces https://{AZURE_SPEECH_REGION}.tts.speech.microsoft.com (a sovereign cloud, a container). */
    AZURE_SPEECH_BASE_URL: optionalHttpUrl,
    // A self-hosted neural engine (docs/narration.md "Self-hosted neural voices"): an OpenAI-compatible speech
    // server such as Kokoro-FastAPI, e.g. http://127.0.0.1:8880/v1. Set, it makes the provider
    // `selfhosted` available; the key is sent as a bearer token when the server wants one, the model
    // names what it runs, and the voices stand in for a server that does not list its own.
    SELFHOSTED_TTS_BASE_URL: optionalHttpUrl,
    SELFHOSTED_TTS_API_KEY: text,
    SELFHOSTED_TTS_MODEL: text,
    SELFHOSTED_TTS_VOICES: text,
  },
  // C2PA signing (docs/narration.md "Marked as synthetic"): the PKCS#8 EC P-256 key and the certificate chain,
  // signing certificate first, each DER in base64 (scripts/c2pa-credentials.mjs). Unset: no manifest.
  signing: {
    C2PA_SIGNING_KEY: text,
    C2PA_CERTIFICATE_CHAIN: text,
  },
  // The audio watermark's key (docs/narration.md "The watermark"): every paragraph voiced is marked with it.
  marking: { WATERMARK_KEY: watermarkKey },
  // No storage of its own: D1, R2 and the render gates are reached through the API Worker (STORE).
  // RENDER_PEER, bound only on one machine, is a second render process the consumer hands every other
  // job to (docs/narration.md "Two render processes on one machine").
  bindings: { STORE: binding, RENDER_PEER: v.optional(binding) },
} as const;

const RenderConfigSchema = v.object({ ...PARTS.providers, ...PARTS.signing, ...PARTS.marking, ...PARTS.bindings });
const ProviderKeysSchema = v.object(PARTS.providers);

export type RenderConfig = v.InferOutput<typeof RenderConfigSchema>;

const checked = new WeakMap<object, RenderConfig>();

/** The checked configuration of the render Worker's `env`; throws an error naming every bad variable. */
export function renderConfig(env: object): RenderConfig {
  const hit = checked.get(env);
  if (hit) return hit;
  const parsed = parseNamingVariables(RenderConfigSchema, env);
  checked.set(env, parsed);
  return parsed;
}

function parseNamingVariables<S extends v.GenericSchema>(schema: S, env: object): v.InferOutput<S> {
  const parsed = v.safeParse(schema, env);
  if (parsed.success) return parsed.output;
  const issues = configurationIssues(PARTS, parsed.issues);
  throw new Error(`invalid render configuration: ${issues.map((i) => `${i.variable} (${i.part}) ${i.message}`).join("; ")}`);
}

/** The provider keys alone: what decides which synthesizers exist (the adapters need nothing else). */
export function providerKeys(env: object): v.InferOutput<typeof ProviderKeysSchema> {
  return parseNamingVariables(ProviderKeysSchema, env);
}
