import * as v from "valibot";
import { binding, configurationIssues, flag, optionalUrl, text, watermarkKey, whole, type ConfigIssue } from "./config-fields";

/**
 * The API Worker's configuration: every var, secret and binding it reads, checked once per isolate
 * by one schema. Each entry belongs to a named part, so a bad value is reported by variable and part
 * (GET /v1/health) and never by value. docs/configuration.md "Configuration" lists them.
 */
const PARTS = {
  addresses: {
    BASE_URL: v.pipe(v.string(), v.url("must be an absolute URL")),
    WEB_URL: v.pipe(v.string(), v.url("must be an absolute URL")),
    /** The feeds' owner, named by podcast:locked (Podcasting 2.0); hosts e-mail it to verify a feed move. */
    FEED_OWNER_EMAIL: v.pipe(v.string(), v.email("must be an e-mail address")),
  },
  credentials: {
    SERVICE_API_KEY: text,
    PUBLISH_WEBHOOK_SECRET: text,
    ADMIN_EMAIL: text,
    ADMIN_PASSWORD: text,
    ADMIN_TOKEN: text,
    ADMIN_ALLOWLIST: text,
    LEGACY_INTAKE_TOKEN: text,
    TOKEN_ENCRYPTION_KEY: v.optional(
      v.pipe(
        v.string(),
        v.check((k) => k === "" || /^[A-Za-z0-9+/]{43}=$/.test(k), "must be 32 bytes in base64"),
      ),
      "",
    ),
  },
  limits: {
    MAX_IN_FLIGHT_RENDERS_PER_LISTENER: whole(3),
    /** How long after its creation a subscription's token is handed back to a repeat subscribe (DESIGN.md "Deviations"). */
    SUBSCRIBE_IDEMPOTENCY_SECONDS: whole(600),
    RATE_LIMIT_READ_PER_MINUTE: whole(60),
    RATE_LIMIT_ADMIN_PER_MINUTE: whole(30),
    RATE_LIMIT_FEEDS_PER_MINUTE: whole(600),
    /** The web front-end's pages, per address (docs/web.md "Page budget"): people, not API clients. */
    RATE_LIMIT_PAGES_PER_MINUTE: whole(300),
    /** How long get_audio_url waits for an on-demand render before answering "pending" (agent tools). */
    AGENT_AUDIO_WAIT_SECONDS: whole(20),
  },
  // Search and trending caches (docs/articles.md "Search"): a TTL of 0 disables a cache.
  caches: {
    SEARCH_CACHE_TTL_SECONDS: whole(60),
    SEARCH_CACHE_CAPACITY: whole(500),
    SEARCH_CACHE_DEGRADED: flag(false),
    TRENDING_CACHE_TTL_SECONDS: whole(60),
    TRENDING_CACHE_CAPACITY: whole(200),
  },
  mail: {
    MAIL_OUTBOX: flag(false),
    MAIL_FROM: v.optional(v.string(), "Narration <no-reply@narration.local>"),
    RESEND_API_KEY: text,
  },
  /**
   * Where search suggestions come from (docs/rules.md "Rules" 4): "off" asks nobody, so a machine offline
   * by design answers "suggestions_status": "off" instead of degraded; "gdelt" is the keyless GDELT
   * DOC API; "newsapi" is newsapi.org with NEWS_API_KEY.
   */
  news: {
    NEWS_PROVIDER: v.optional(v.picklist(["off", "gdelt", "newsapi"], 'must be "off", "gdelt" or "newsapi"'), "off"),
    NEWS_API_KEY: text,
  },
  wallet: { CIRCLE_API_KEY: text },
  // x402 (docs/agents/payments.md "Paying agents"): an EVM network in CAIP-2 form, the EVM address paid, and "local" or a facilitator URL.
  x402: {
    X402_NETWORK: v.optional(v.pipe(v.string(), v.regex(/^eip155:[1-9]\d*$/, "must be an EVM network in CAIP-2 form (eip155:<chain id>)")), "eip155:84532"),
    X402_PAY_TO: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address (0x and 40 hex digits)"))]), ""),
    X402_FACILITATOR_URL: v.optional(v.union([v.literal("local"), v.pipe(v.string(), v.url('must be "local" or an absolute URL'))]), "local"),
  },
  // The key the audio watermark is read with (POST /v1/marks/detect); the render Worker writes with the same.
  marking: { WATERMARK_KEY: watermarkKey },
  audio_delivery: {
    R2_PUBLIC_URL: optionalUrl,
    R2_ACCESS_KEY_ID: text,
    R2_SECRET_ACCESS_KEY: text,
    R2_ACCOUNT_ID: text,
    R2_BUCKET_NAME: v.optional(v.string(), "narration-audio"),
  },
  build: {
    BUILD_COMMIT: v.optional(v.string(), "unknown"),
    BUILD_TIME: v.optional(v.string(), "unknown"),
    COMPATIBILITY_DATE: v.optional(v.string(), "unknown"),
  },
  bindings: {
    DB: binding,
    AUDIO: binding,
    RENDER_QUEUE: binding,
    RENDER: binding,
    RATE_LIMITER: binding,
    RENDER_GATE: binding,
    DEDUPE_WINDOW: binding,
  },
} as const;

const ConfigSchema = v.object({
  ...PARTS.addresses,
  ...PARTS.credentials,
  ...PARTS.limits,
  ...PARTS.caches,
  ...PARTS.mail,
  ...PARTS.news,
  ...PARTS.wallet,
  ...PARTS.x402,
  ...PARTS.marking,
  ...PARTS.audio_delivery,
  ...PARTS.build,
  ...PARTS.bindings,
});

/** Rules across variables, reported on the variable that must change. */
const CheckedConfig = v.pipe(
  ConfigSchema,
  v.forward(
    v.partialCheck([["NEWS_PROVIDER"], ["NEWS_API_KEY"]], (c) => c.NEWS_PROVIDER !== "newsapi" || c.NEWS_API_KEY !== "", "newsapi needs NEWS_API_KEY"),
    ["NEWS_PROVIDER"],
  ),
);

export type Config = v.InferOutput<typeof ConfigSchema>;

const checked = new WeakMap<object, { config?: Config; issues: ConfigIssue[] }>();

function check(env: object) {
  let hit = checked.get(env);
  if (!hit) {
    const parsed = v.safeParse(CheckedConfig, env);
    hit = parsed.success ? { config: parsed.output, issues: [] } : { issues: configurationIssues(PARTS, parsed.issues) };
    checked.set(env, hit);
  }
  return hit;
}

/** What is wrong with `env`'s configuration, by part and variable (never a value); empty when all is well. */
export function configProblems(env: object): ConfigIssue[] {
  return check(env).issues;
}

/** The checked configuration of `env`; throws an error naming every bad variable. */
export function config(env: object): Config {
  const { config: ok, issues } = check(env);
  if (ok) return ok;
  throw new Error(`invalid configuration: ${issues.map((i) => `${i.variable} (${i.part}) ${i.message}`).join("; ")}`);
}

/** The base URL without a trailing slash, for building absolute links. */
export function baseUrl(env: object): string {
  return config(env).BASE_URL.replace(/\/+$/, "");
}

/** The web app's URL without a trailing slash, for building links to its pages. */
export function webUrl(env: object): string {
  return config(env).WEB_URL.replace(/\/+$/, "");
}

/** An article's page on the web front-end, with its text and player (docs/web.md "Web front-end"). */
export function articlePageUrl(env: object, slug: string): string {
  return `${webUrl(env)}/articles/${encodeURIComponent(slug)}`;
}

/** An article's embeddable player (docs/rules.md "Rules" 4: {web_url}/embed/article/{slug}). */
export function embedPlayerUrl(env: object, slug: string): string {
  return `${webUrl(env)}/embed/article/${encodeURIComponent(slug)}`;
}
