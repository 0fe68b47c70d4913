import { store } from "../../../test/support/render-store";
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { transformAudio, type AudioTransform } from "../../../test/support/audio-probe";
import { addArticle } from "../../../test/support/articles";
import { call } from "../../../test/support/client";
import { testVars } from "../../../test/vars";
import { audioObjects, database } from "../../db/index";
import { audioObjectPath, MASTER_SAMPLE_RATE } from "../../kernel/audio-objects";
import { keyedParagraphs } from "../../kernel/normalize-text";
import { PLATFORM_ID } from "../../kernel/watermark/scheme";
import { espeak, offlineSynthesizer } from "../engine/offline";
import { floatToInt16, int16LeBytes } from "../engine/pcm";
import { decodeWav, wavFromInt16 } from "../engine/wav";

import { paragraphKey } from "./cache-key";
import { renderText } from "./render";
import { encodeStored } from "./store";
import { useWatermark } from "./watermark";

// Two paragraphs of about twenty seconds each: the mark is read from a paragraph of ten seconds of speech or more.
const TEXT = [
  "The city council met on Tuesday evening to discuss the new budget for public transport. Several members argued that the bus network needs more frequent service in the outer districts, while others pointed to the cost of new vehicles and drivers. After a long debate the council agreed to commission a study of passenger numbers before the next meeting in the spring.",
  "Scientists have found that a small fish living in coral reefs can recognise its own reflection. The researchers placed a mark on the fish and watched as it tried to scrape the mark off against the sand, which raises questions about self awareness in animals. Other teams now plan to repeat the experiment with different species of fish and with birds that live near the reef.",
].join("\n\n");

/** POST /v1/marks/detect with `wav`. */
async function detect(
  audio: Uint8Array,
  contentType = "audio/wav",
): Promise<{
  marked: boolean;
  confidence: number;
  payload: { synthetic: boolean; platform: number; id: string; narrations: { voice: string; articles: { slug: string; url: string }[] }[] } | null;
}> {
  const res = await call("/v1/marks/detect", { method: "POST", body: audio, headers: { "content-type": contentType } });
  expect(res.status).toBe(200);
  return res.json();
}

describe('the audio watermark (docs/narration.md "The watermark")', () => {
  // One render for every check (storage is reset before each test, test/setup.ts).
  it("a rendered narration carries it (synthetic, this platform, one of its paragraphs' ids, leading to the narration's public article) through MP3 32k, Opus 24k and -6 dB and in ten seconds across a paragraph boundary; unmarked speech reads nothing", async () => {
    useWatermark({ WATERMARK_KEY: testVars.WATERMARK_KEY });
    const rendered = await renderText(store, { text: TEXT, voice: "en-US-male" }, { offline: offlineSynthesizer });
    const article = await addArticle({ slug: "council-budget", audioKey: rendered.key });
    await addArticle({ slug: "a-listeners-own-copy", audioKey: rendered.key, visibility: "listener_private" });
    await encodeStored(store, rendered.key, "wav");
    const mp3 = await (await env.AUDIO.get(audioObjectPath(rendered.key, "mp3")))!.arrayBuffer();
    const wav = new Uint8Array(await (await env.AUDIO.get(audioObjectPath(rendered.key, "wav")))!.arrayBuffer());
    const ids = await Promise.all(keyedParagraphs(TEXT).map(async (p) => (await paragraphKey(rendered.provider, rendered.voice, p, null)).slice(0, 8)));

    const reading = await detect(wav);
    expect(reading).toMatchObject({ marked: true, payload: { synthetic: true, platform: PLATFORM_ID } });
    expect(ids).toContain(reading.payload!.id);
    expect(reading.confidence).toBeGreaterThan(0.99);
    // The id leads to the record: the narration, its voice, and the public article it narrates (not the private copy).
    expect(reading.payload!.narrations).toEqual([
      expect.objectContaining({
        voice: rendered.voice,
        articles: [expect.objectContaining({ slug: article.slug, url: `${testVars.WEB_URL}/articles/${article.slug}` })],
      }),
    ]);

    // The stored Ogg Opus as it is, decoded by the render Worker's libopus.
    const opus = new Uint8Array(await (await env.AUDIO.get(audioObjectPath(rendered.key, "opus")))!.arrayBuffer());
    const fromOpus = await detect(opus, "audio/ogg");
    expect(fromOpus.marked).toBe(true);
    expect(ids).toContain(fromOpus.payload!.id);

    for (const to of ["mp3-32k", "opus-24k", "volume-6db"] satisfies AudioTransform[]) {
      const after = await detect(await transformAudio(mp3, "mp3", to));
      expect(after.marked, to).toBe(true);
      expect(ids, to).toContain(after.payload!.id);
    }

    // Across the paragraph boundary, cut where the render itself recorded the second paragraph's
    // start: 4.5 s on each side, too short alone, is read together (detect.ts acrossPauses), though
    // the two sides carry different ids (bench/results.md "Watermark" has the ten seconds).
    const row = await database(env).select().from(audioObjects).where(eq(audioObjects.key, rendered.key)).get();
    const boundary = row!.paragraphStarts![1];
    const master = Int16Array.from(decodeWav(wav).samples, floatToInt16);
    const cut = (from: number, to: number) =>
      wavFromInt16(int16LeBytes(master.slice(boundary + from * MASTER_SAMPLE_RATE, boundary + to * MASTER_SAMPLE_RATE)), MASTER_SAMPLE_RATE);
    expect(await detect(cut(-4.5, 0)), "the first side alone").toMatchObject({ marked: false });
    expect(await detect(cut(0, 4.5)), "the second side alone").toMatchObject({ marked: false });
    const acrossBoundary = await detect(cut(-4.5, 4.5));
    expect(acrossBoundary, "both sides").toMatchObject({ marked: true });
    expect(acrossBoundary.confidence).toBeGreaterThan(0.9999);

    const pcm = await espeak(TEXT, "en-us");
    const unmarkedSamples = Int16Array.from(pcm.samples, floatToInt16);
    expect(await detect(wavFromInt16(int16LeBytes(unmarkedSamples), pcm.sampleRate))).toMatchObject({ marked: false, payload: null });
    // Ten seconds of it from the middle, pauses included: no stretches add up to a mark.
    const middle = Math.round(unmarkedSamples.length / 2 - 5 * pcm.sampleRate);
    const unmarkedExcerpt = unmarkedSamples.slice(middle, middle + 10 * pcm.sampleRate);
    expect(await detect(wavFromInt16(int16LeBytes(unmarkedExcerpt), pcm.sampleRate))).toMatchObject({ marked: false, payload: null });
  }, 180_000);

  it("answers 422 to a body that is neither WAV nor Ogg Opus, naming the body", async () => {
    for (const body of ["ID3 not a wave file", "OggS but no Opus stream after it"]) {
      const res = await call("/v1/marks/detect", { method: "POST", body: new TextEncoder().encode(body), headers: { "content-type": "audio/mpeg" } });
      expect(res.status, body).toBe(422);
      expect(((await res.json()) as { detail: { loc: string[] }[] }).detail[0].loc).toEqual(["body"]);
    }
  });
});
