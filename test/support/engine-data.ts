import { env } from "cloudflare:workers";
import { inject } from "vitest";
import espeakLanguageData from "../../workers/render/engine/vendor/espeak-data.json";

declare module "vitest" {
  interface ProvidedContext {
    engineDataUrl: string;
  }
}

/** A vendored file of the engine's R2 data (scripts/engine-data-setup.mjs) by its R2 path, null when there is none. */
export async function vendoredObject(path: string): Promise<ArrayBuffer | null> {
  const res = await fetch(`${inject("engineDataUrl")}/${path.slice(path.lastIndexOf("/") + 1)}`);
  return res.ok ? res.arrayBuffer() : null;
}

/** The vendored eSpeak NG data of `voice` (scripts/engine-data-setup.mjs), as R2 holds it once seeded. */
export async function engineData(voice: string): Promise<ArrayBuffer> {
  const bytes = await vendoredObject(`${voice}.bin`);
  if (!bytes) throw new Error(`no vendored eSpeak data for ${voice}`);
  return bytes;
}

/**
 * Puts `voices`' data in the test's R2 bucket where the render Worker reads it, as npm start's seed
 * does; Japanese's with the readings dictionary (workers/render/engine/readings.ts).
 */
export async function seedEngineData(...voices: string[]): Promise<void> {
  for (const voice of voices) await env.AUDIO.put(`${espeakLanguageData.prefix}${voice}.bin`, await engineData(voice));
  if (!voices.includes("ja")) return;
  for (const name of espeakLanguageData.readingFiles) {
    await env.AUDIO.put(`${espeakLanguageData.prefix}${name}`, (await vendoredObject(name))!);
  }
}
