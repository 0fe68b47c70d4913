import { providerKeys } from "../config";
import { offlineSynthesizer } from "../engine/offline";
import { azureSynthesizer } from "./azure";
import type { Synthesizers } from "../pipeline/render";
import { elevenLabsSynthesizer } from "./elevenlabs";
import { googleSynthesizer } from "./google";
import type { FetchFn } from "./http";
import { openAiSynthesizer } from "./openai";
import { workersAiSynthesizer, type AiRunner } from "./workers-ai";

/**
 * The providers this Worker can use: the offline engine always; a cloud provider only when its key
 * (and, for Azure, its region) is configured; Workers AI only when the AI binding exists (it is absent in local dev and tests).
 * Render Worker only: it pulls in the WebAssembly engine.
 */
export function configuredProviders(env: object & { AI?: unknown }, fetchFn: FetchFn = (input, init) => fetch(input, init)): Synthesizers {
  const keys = providerKeys(env);
  return {
    offline: offlineSynthesizer,
    ...(env.AI ? { "workers-ai": workersAiSynthesizer(env.AI as AiRunner) } : {}),
    ...(keys.OPENAI_API_KEY ? { openai: openAiSynthesizer(keys.OPENAI_API_KEY, fetchFn) } : {}),
    ...(keys.ELEVENLABS_API_KEY ? { elevenlabs: elevenLabsSynthesizer(keys.ELEVENLABS_API_KEY, fetchFn) } : {}),
    ...(keys.GOOGLE_TTS_API_KEY ? { google: googleSynthesizer(keys.GOOGLE_TTS_API_KEY, fetchFn) } : {}),
    ...(keys.AZURE_SPEECH_KEY && keys.AZURE_SPEECH_REGION
      ? { azure: azureSynthesizer(keys.AZURE_SPEECH_KEY, keys.AZURE_SPEECH_REGION, fetchFn) }
      : {}),
  };
}
