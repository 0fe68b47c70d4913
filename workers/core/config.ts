import * as v from "valibot";

/**
 * Vars and secrets, checked once per isolate. Bindings (DB, AUDIO, ...) are typed by
 * `wrangler types`; this schema turns the string configuration into checked values.
 */
const optionalText = v.optional(v.string(), "");

function count(fallback: number) {
  return v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, "must be a whole number"), v.transform(Number)),
    String(fallback),
  );
}

/** An http(s) base URL, or empty for the provider's own endpoint. Plain http serves servers on loopback or a LAN. */
const baseUrlField = v.optional(
  v.union([v.literal(""), v.pipe(v.string(), v.url("must be an absolute URL"), v.regex(/^https?:\/\//i, "must be an http or https URL"))]),
  "",
);

/**
 * Text-to-speech endpoints (render Worker): OPENAI_BASE_URL also points the OpenAI adapter at an
 * OpenAI-compatible speech server (Kokoro-FastAPI, openedai-speech, LocalAI); the others select a
 * regional endpoint or a proxy. Empty: the provider's public endpoint.
 */
export const ProviderEndpoints = v.object({
  OPENAI_BASE_URL: baseUrlField,
  ELEVENLABS_BASE_URL: baseUrlField,
  GOOGLE_TTS_BASE_URL: baseUrlField,
  /** Replaces https://{AZURE_SPEECH_REGION}.tts.speech.microsoft.com (a sovereign cloud, a container). */
  AZURE_SPEECH_BASE_URL: baseUrlField,
});

const ConfigSchema = v.object({
  ...ProviderEndpoints.entries,
  BASE_URL: v.pipe(v.string(), v.url("must be an absolute URL")),
  WEB_URL: v.pipe(v.string(), v.url("must be an absolute URL")),
  /** The feeds' owner, named by podcast:locked (Podcasting 2.0); hosts e-mail it to verify a feed move. */
  FEED_OWNER_EMAIL: v.pipe(v.string(), v.email("must be an e-mail address")),
  SERVICE_API_KEY: optionalText,
  PUBLISH_WEBHOOK_SECRET: optionalText,
  ADMIN_EMAIL: optionalText,
  ADMIN_PASSWORD: optionalText,
  ADMIN_TOKEN: optionalText,
  ADMIN_ALLOWLIST: optionalText,
  LEGACY_INTAKE_TOKEN: optionalText,
  TOKEN_ENCRYPTION_KEY: optionalText,
  MAX_IN_FLIGHT_RENDERS_PER_LISTENER: count(3),
  RATE_LIMIT_READ_PER_MINUTE: count(60),
  RATE_LIMIT_ADMIN_PER_MINUTE: count(30),
  // Search and trending caches (SPEC.md part 4 search rules 2 and 3): TTL 0 disables a cache.
  SEARCH_CACHE_TTL_SECONDS: count(60),
  SEARCH_CACHE_CAPACITY: count(500),
  SEARCH_CACHE_DEGRADED: v.optional(v.pipe(v.picklist(["true", "false"]), v.transform((s) => s === "true")), "false"),
  TRENDING_CACHE_TTL_SECONDS: count(60),
  TRENDING_CACHE_CAPACITY: count(200),
  /** newsapi.org key for search suggestions; without it the keyless GDELT DOC API is asked. */
  NEWS_API_KEY: optionalText,
});

export type Config = v.InferOutput<typeof ConfigSchema>;

const cache = new WeakMap<object, Config>();

/** `env` checked against `schema`; throws a readable error naming every bad variable. */
export function checkedVars<S extends v.GenericSchema>(schema: S, env: object): v.InferOutput<S> {
  const parsed = v.safeParse(schema, env);
  if (!parsed.success) {
    const problems = parsed.issues.map((i) => `${v.getDotPath(i) ?? "?"} ${i.message}`);
    throw new Error(`invalid configuration: ${problems.join("; ")}`);
  }
  return parsed.output;
}

/** The checked configuration of `env`; throws a readable error naming every bad variable. */
export function config(env: object): Config {
  const hit = cache.get(env);
  if (hit) return hit;
  const checked = checkedVars(ConfigSchema, env);
  cache.set(env, checked);
  return checked;
}

/** The base URL without a trailing slash, for building absolute links. */
export function baseUrl(env: object): string {
  return config(env).BASE_URL.replace(/\/+$/, "");
}

/** The web app's URL without a trailing slash, for building links to its pages. */
export function webUrl(env: object): string {
  return config(env).WEB_URL.replace(/\/+$/, "");
}

/** An article's page on the web front-end (SPEC.md: {web_url}/embed/article/{slug}). */
export function articlePageUrl(env: object, slug: string): string {
  return `${webUrl(env)}/embed/article/${encodeURIComponent(slug)}`;
}
