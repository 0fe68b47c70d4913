import { providerKeys } from "../config";
import { offlineSynthesizer } from "../engine/offline";
import { azureRegionalBaseUrl, azureSynthesizer } from "./azure";
import type { Synthesizers } from "../pipeline/render";
import { elevenLabsSynthesizer } from "./elevenlabs";
import { googleSynthesizer } from "./google";
import { REQUEST_TIMEOUT_MS, type FetchFn } from "./http";
import { openAiSynthesizer } from "./openai";
import { workersAiSynthesizer, type AiRunner } from "./workers-ai";

/**
 * The providers this Worker can use: the offline engine always; a cloud provider only when its key
 * (and, for Azure, its region or AZURE_SPEECH_BASE_URL) is configured, at its configured endpoint;
 * Workers AI only when the AI binding exists (it is absent in local dev and tests).
 * Render Worker only: it pulls in the WebAssembly engine.
 */
export function configuredProviders(
  env: object & { AI?: unknown },
  fetchFn: FetchFn = (input, init) => fetch(input, init),
  timeoutMs = REQUEST_TIMEOUT_MS,
): Synthesizers {
  const keys = providerKeys(env);
  const azureBase = keys.AZURE_SPEECH_BASE_URL || (keys.AZURE_SPEECH_REGION && azureRegionalBaseUrl(keys.AZURE_SPEECH_REGION));
  return {
    offline: offlineSynthesizer,
    ...(env.AI ? { "workers-ai": workersAiSynthesizer(env.AI as AiRunner) } : {}),
    ...(keys.OPENAI_API_KEY ? { openai: openAiSynthesizer(keys.OPENAI_API_KEY, fetchFn, timeoutMs, keys.OPENAI_BASE_URL || undefined) } : {}),
    ...(keys.ELEVENLABS_API_KEY
      ? { elevenlabs: elevenLabsSynthesizer(keys.ELEVENLABS_API_KEY, fetchFn, timeoutMs, keys.ELEVENLABS_BASE_URL || undefined) }
      : {}),
    ...(keys.GOOGLE_TTS_API_KEY ? { google: googleSynthesizer(keys.GOOGLE_TTS_API_KEY, fetchFn, timeoutMs, keys.GOOGLE_TTS_BASE_URL || undefined) } : {}),
    ...(keys.AZURE_SPEECH_KEY && azureBase ? { azure: azureSynthesizer(keys.AZURE_SPEECH_KEY, azureBase, fetchFn, timeoutMs) } : {}),
  };
}
