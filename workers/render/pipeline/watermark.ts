// Every paragraph is marked as it is voiced, before it is stored (docs/narration.md "The watermark"):
// the paragraph cache then holds marked audio, and a join lays marked paragraphs end to end, so
// every narration built from them carries the mark wherever it is cut. The payload's id is the
// first 32 bits of the paragraph's content address, which depends on its text and voice only, so a
// paragraph's audio stays the same whichever article voices it first.
import { markSamples } from "./watermark-embed";
import { markLayout, PLATFORM_ID, type MarkLayout } from "../../kernel/watermark/scheme";
import type { VoicedPassage } from "./synthesize";

let layout: Promise<MarkLayout> | null = null;
let layoutFrom: object | undefined;

/** Takes the isolate's WATERMARK_KEY from its `env` (once per env); paragraphs voiced from then on are marked with it. */
export function useWatermark(env: { WATERMARK_KEY: string }): void {
  if (layoutFrom === env) return;
  layoutFrom = env;
  layout = markLayout(env.WATERMARK_KEY);
}

/** The id a paragraph's mark carries: the first 32 bits (8 hex digits) of its paragraph key. */
export const markId = (paragraphKey: string) => paragraphKey.slice(0, 8);

/** Marks each of `passages` (in place) with the payload of its paragraph key `keys[i]`; unmarked when no key is configured. */
export async function markPassages(passages: VoicedPassage[], keys: string[]): Promise<void> {
  if (!layout) return;
  const keyed = await layout;
  passages.forEach((passage, i) => {
    passage.samples = markSamples(passage.samples, keyed, { synthetic: true, platform: PLATFORM_ID, id: markId(keys[i]) });
  });
}
