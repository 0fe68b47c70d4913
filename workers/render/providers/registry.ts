import { providerKeys } from "../config";
import { offlineSynthesizerWith } from "../engine/offline";
import { renderStore, renderStoreObjectUrl } from "../../kernel/render-contract";
import type { ProviderId } from "../../kernel/voice-catalogue";
import { azureRegionalBaseUrl, azureSynthesizer } from "./azure";
import type { Synthesizers } from "../pipeline/render";
import { elevenLabsSynthesizer } from "./elevenlabs";
import { googleSynthesizer } from "./google";
import { REQUEST_TIMEOUT_MS, type FetchFn } from "./http";
import { openAiSynthesizer } from "./openai";
import { selfHostedSynthesizer } from "./selfhosted";
import type { Synthesizer } from "./synthesizer";
import { workersAiSynthesizer, type AiRunner } from "./workers-ai";

type Keys = ReturnType<typeof providerKeys>;
type RenderEnv = object & { AI?: unknown };

/** How one provider is set up from the configuration, and what is missing when it cannot be. */
interface Setup {
  /** Why the provider is unavailable when `build` gives nothing: shown in GET /v1/voices. */
  missing: string;
  build(keys: Keys, env: RenderEnv, fetchFn: FetchFn, timeoutMs: number): Synthesizer | null;
}

const SETUP: Record<ProviderId, Setup> = {
  // Languages other than English are read from R2 through the RenderStore when first needed.
  offline: {
    missing: "",
    build: (_, env) =>
      offlineSynthesizerWith(async (path) => {
        const res = await renderStore(env).fetch(new Request(renderStoreObjectUrl(path)));
        return res.ok ? res.arrayBuffer() : null;
      }),
  },
  "workers-ai": {
    missing: "no AI binding: Workers AI is bound only on Cloudflare (npm run deploy)",
    build: (_, env) => (env.AI ? workersAiSynthesizer(env.AI as AiRunner) : null),
  },
  openai: {
    missing: "no OPENAI_API_KEY configured",
    build: (k, _, f, t) => (k.OPENAI_API_KEY ? openAiSynthesizer(k.OPENAI_API_KEY, f, t, k.OPENAI_BASE_URL || undefined) : null),
  },
  elevenlabs: {
    missing: "no ELEVENLABS_API_KEY configured",
    build: (k, _, f, t) => (k.ELEVENLABS_API_KEY ? elevenLabsSynthesizer(k.ELEVENLABS_API_KEY, f, t, k.ELEVENLABS_BASE_URL || undefined) : null),
  },
  google: {
    missing: "no GOOGLE_TTS_API_KEY configured",
    build: (k, _, f, t) => (k.GOOGLE_TTS_API_KEY ? googleSynthesizer(k.GOOGLE_TTS_API_KEY, f, t, k.GOOGLE_TTS_BASE_URL || undefined) : null),
  },
  azure: {
    missing: "no AZURE_SPEECH_KEY with AZURE_SPEECH_REGION (or AZURE_SPEECH_BASE_URL) configured",
    build: (k, _, f, t) => {
      const base = k.AZURE_SPEECH_BASE_URL || (k.AZURE_SPEECH_REGION && azureRegionalBaseUrl(k.AZURE_SPEECH_REGION));
      return k.AZURE_SPEECH_KEY && base ? azureSynthesizer(k.AZURE_SPEECH_KEY, base, f, t) : null;
    },
  },
  selfhosted: {
    missing: "no SELFHOSTED_TTS_BASE_URL configured",
    build: (k, _, fetchFn, timeoutMs) =>
      k.SELFHOSTED_TTS_BASE_URL
        ? selfHostedSynthesizer({
            baseUrl: k.SELFHOSTED_TTS_BASE_URL,
            apiKey: k.SELFHOSTED_TTS_API_KEY,
            model: k.SELFHOSTED_TTS_MODEL,
            configuredVoices: k.SELFHOSTED_TTS_VOICES.split(",")
              .map((s) => s.trim())
              .filter(Boolean),
            fetchFn,
            timeoutMs,
          })
        : null,
  },
};

/** The configured providers, and why each of the others is unavailable. */
export interface ProviderSetup {
  synthesizers: Synthesizers;
  missing: Partial<Record<ProviderId, string>>;
}

/**
 * The providers this Worker can use: the offline engine always; a cloud provider only when its key
 * (and, for Azure, its region or AZURE_SPEECH_BASE_URL) is configured, at its configured endpoint;
 * Workers AI only when the AI binding exists (it is absent in local dev and tests); a self-hosted
 * server only when SELFHOSTED_TTS_BASE_URL is set. One reading of
 * the configuration decides both what renders use and what GET /v1/voices reports.
 * Render Worker only: it pulls in the WebAssembly engine.
 */
export function providerSetup(env: RenderEnv, fetchFn: FetchFn = (input, init) => fetch(input, init), timeoutMs = REQUEST_TIMEOUT_MS): ProviderSetup {
  const keys = providerKeys(env);
  const setup: ProviderSetup = { synthesizers: {}, missing: {} };
  for (const [id, { build, missing }] of Object.entries(SETUP) as [ProviderId, Setup][]) {
    const synthesizer = build(keys, env, fetchFn, timeoutMs);
    if (synthesizer) setup.synthesizers[id] = synthesizer;
    else setup.missing[id] = missing;
  }
  return setup;
}

/** The configured providers alone (providerSetup). */
export function configuredProviders(env: RenderEnv, fetchFn?: FetchFn, timeoutMs?: number): Synthesizers {
  return providerSetup(env, fetchFn, timeoutMs).synthesizers;
}
