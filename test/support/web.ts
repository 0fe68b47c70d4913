import { env } from "cloudflare:test";
import { audioObjects, database } from "../../workers/db/index";
import { MASTER_SAMPLE_RATE } from "../../workers/kernel/audio-objects";
import { addArticle } from "./articles";
import { call } from "./client";

/** A public article whose audio is rendered, with paragraph starts recorded at `startsSeconds`. */
export async function addNarratedArticle(over: Parameters<typeof addArticle>[0] = {}, startsSeconds: number[] | null = [0.1, 2.5, 6]) {
  const key = crypto.randomUUID().replace(/-/g, "").padEnd(64, "0");
  const article = await addArticle({ bodyText: "First paragraph here.\n\nSecond <b>paragraph</b> here.", audioKey: key, listenSeconds: 9, ...over });
  await database(env)
    .insert(audioObjects)
    .values({
      key,
      provider: "local",
      voice: "en",
      durationSeconds: 9,
      paragraphStarts: startsSeconds?.map((s) => Math.round(s * MASTER_SAMPLE_RATE)) ?? null,
    });
  return { article, key };
}

/** GET of a page on the web front-end (https://web.test in tests). */
export function openPage(path: string): Promise<Response> {
  return call(new URL(path, env.WEB_URL).href);
}
