import { env } from "cloudflare:workers";
import { inject } from "vitest";
import espeakLanguageData from "../../workers/render/engine/vendor/espeak-data.json";

declare module "vitest" {
  interface ProvidedContext {
    engineDataUrl: string;
  }
}

/** The vendored eSpeak NG data of `voice` (scripts/engine-data-setup.mjs), as R2 holds it once seeded. */
export async function engineData(voice: string): Promise<ArrayBuffer> {
  const res = await fetch(`${inject("engineDataUrl")}/${voice}.bin`);
  if (!res.ok) throw new Error(`no vendored eSpeak data for ${voice}`);
  return res.arrayBuffer();
}

/** Puts `voices`' data in the test's R2 bucket where the render Worker reads it, as npm start's seed does. */
export async function seedEngineData(...voices: string[]): Promise<void> {
  for (const voice of voices) await env.AUDIO.put(`${espeakLanguageData.prefix}${voice}.bin`, await engineData(voice));
}
