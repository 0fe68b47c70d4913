import { describe, expect, it } from "vitest";
import { store } from "../../../test/support/render-store";
import type { RenderStoreRpc } from "../../kernel/render-contract";
import { loadParagraph, storeParagraph, voicedParagraph } from "./paragraph-cache";
import type { VoicedPassage } from "./synthesize";

/**
 * A stored paragraph read as a render lays it (issue 44 item 4): its header first, its samples only
 * when asked, and the piece of its object a master is composed of.
 */

/** `store` with the bytes of every object answer counted. */
function counting(): { store: RenderStoreRpc; moved: () => number } {
  let bytes = 0;
  const counted = Object.create(store) as RenderStoreRpc;
  counted.fetch = async (request) => {
    const res = await store.fetch(request);
    bytes += Number(res.headers.get("content-length") ?? 0);
    return res;
  };
  return { store: counted, moved: () => bytes };
}

function passage(samples: number, words: number): VoicedPassage {
  const pcm = Int16Array.from({ length: samples }, (_, i) => ((i * 37) % 2000) - 1000);
  return { samples: pcm, start: 480, words: Array.from({ length: words }, (_, i) => ({ text: `word${i}`, start: i * 10, end: i * 10 + 9 })) };
}

describe("a stored paragraph", () => {
  it("is read by its header alone, and its samples only when asked, exactly as stored", async () => {
    const voiced = passage(480_000, 40); // 20 s at 24 kHz: 960 KB of samples
    await storeParagraph(store, "k-long", voiced);
    const { store: counted, moved } = counting();
    const laid = (await loadParagraph(counted, "k-long"))!;
    expect(moved()).toBeLessThanOrEqual(64 * 1024);
    expect(laid).toMatchObject({ start: 480, length: 480_000, words: voiced.words });
    expect(laid.piece).toEqual(voicedParagraph("k-long", voiced).piece);
    expect(await laid.samples()).toEqual(voiced.samples);
    expect(moved()).toBeLessThanOrEqual(64 * 1024 + 960_000);
  });

  it("is read in one answer when short, and with a header longer than the first read", async () => {
    const short = passage(1000, 2);
    await storeParagraph(store, "k-short", short);
    const { store: counted, moved } = counting();
    const laid = (await loadParagraph(counted, "k-short"))!;
    const once = moved();
    expect(await laid.samples()).toEqual(short.samples);
    expect(moved()).toBe(once);
    const wordy = passage(5000, 6000); // a header of about 100 KB
    await storeParagraph(store, "k-wordy", wordy);
    const read = (await loadParagraph(store, "k-wordy"))!;
    expect(read.words).toEqual(wordy.words);
    expect(await read.samples()).toEqual(wordy.samples);
    expect(read.piece).toEqual(voicedParagraph("k-wordy", wordy).piece);
  });

  it("is null when it was never voiced", async () => {
    expect(await loadParagraph(store, "k-never")).toBeNull();
  });
});
