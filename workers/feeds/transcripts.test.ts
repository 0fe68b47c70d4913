import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { feedListener, forgetEdgeCache, PUBLIC_FEED_PATHS, readyArticle } from "../../test/support/feeds";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { audioObjects, database } from "../db";
import { MASTER_SAMPLE_RATE, wordTimingsPath } from "../kernel/audio-objects";
import { timingsJson } from "../kernel/word-timings";
import { chaptersOf, headingOf } from "./chapters";
import { webVtt } from "./vtt";

const samples = (seconds: number) => Math.round(seconds * MASTER_SAMPLE_RATE);

/** Records paragraph starts (seconds) for the audio of `article`, and word timings [paragraph, text, start, end] when given. */
async function timeArticle(article: { audioKey: string | null }, starts: number[], words?: [number, string, number, number][]) {
  await database(env)
    .update(audioObjects)
    .set({ paragraphStarts: starts.map(samples) })
    .where(eq(audioObjects.key, article.audioKey!));
  if (words) {
    const stored = words.map(([paragraph, text, start, end]) => ({ paragraph, text, start: samples(start), end: samples(end) }));
    await env.AUDIO.put(wordTimingsPath(article.audioKey!), timingsJson(stored));
  }
}

/** The words of "Rates." / "First sentence here." as the render measured them. */
const MEASURED: [number, string, number, number][] = [
  [0, "Rates.", 0.115, 0.6],
  [1, "First", 1.315, 1.7],
  [1, "sentence", 1.8, 2.3],
  [1, "here.", 2.42, 2.9],
];

describe("WebVTT transcripts (podcast:transcript)", () => {
  it("serves a public article's transcript, timed over its audio, on GET and HEAD", async () => {
    const a = await readyArticle({ title: "Rates <up>", bodyText: "First sentence. Second one & more." }, { duration: 30 });
    const res = await call(`/v1/podcasts/transcripts/${a.slug}.vtt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(await res.text()).toBe("WEBVTT\n\n1\n00:00:00.000 --> 00:00:30.000\nRates &lt;up&gt;. First sentence. Second one &amp; more.\n");
    expect((await call(`/v1/podcasts/transcripts/${a.slug}.vtt`, { method: "HEAD" })).status).toBe(200);
  });

  it("times each paragraph at the start its render recorded, and the cues within a paragraph inside its span", async () => {
    const long = Array.from({ length: 6 }, (_, i) => `Sentence ${i} of the long second paragraph goes on.`).join(" ");
    const a = await readyArticle({ title: "Rates", bodyText: `First paragraph here.\n\n${long}\n\nLast one.` }, { duration: 30 });
    // Starts in samples at 24 kHz: 0.1 s, 5 s, 8 s and 20 s; nothing like the paragraphs' shares of the characters.
    await database(env)
      .update(audioObjects)
      .set({ paragraphStarts: [2400, 120_000, 192_000, 480_000] })
      .where(eq(audioObjects.key, a.audioKey!));
    const vtt = await (await call(`/v1/podcasts/transcripts/${a.slug}.vtt`)).text();
    const cues = vtt
      .trim()
      .split("\n\n")
      .slice(1)
      .map((c) => c.split("\n"));
    expect(cues.slice(0, 2)).toEqual([
      ["1", "00:00:00.100 --> 00:00:05.000", "Rates."],
      ["2", "00:00:05.000 --> 00:00:08.000", "First paragraph here."],
    ]);
    const middle = cues.slice(2, -1);
    expect(middle.length).toBeGreaterThan(1); // longer than one cue: split within its span
    expect(middle[0][1].startsWith("00:00:08.000 -->")).toBe(true);
    expect(middle.at(-1)![1].endsWith("--> 00:00:20.000")).toBe(true);
    expect(middle.map((c) => c[2]).join(" ")).toBe(long);
    expect(cues.at(-1)!.slice(1)).toEqual(["00:00:20.000 --> 00:00:30.000", "Last one."]);
  });

  it("is 404 for stubs, private articles, articles without audio and unknown slugs", async () => {
    const stub = await readyArticle({ visibility: "publisher_only" });
    const { listener } = await feedListener();
    const priv = await readyArticle({ visibility: "listener_private", ownerListenerId: listener.id });
    const silent = await addArticle();
    for (const slug of [stub.slug, priv.slug, silent.slug, "no-such-article"]) {
      expect((await call(`/v1/podcasts/transcripts/${slug}.vtt`)).status, slug).toBe(404);
    }
  });
});

describe("WebVTT and JSON transcripts timed by the words the render measured", () => {
  it("the WebVTT cues start at their first word as measured, and the JSON transcript has one segment per word", async () => {
    const a = await readyArticle({ title: "Rates", bodyText: "First sentence here." }, { duration: 4 });
    await timeArticle(a, [0.1, 1.3], MEASURED);
    const vtt = await (await call(`/v1/podcasts/transcripts/${a.slug}.vtt`)).text();
    expect(vtt).toBe("WEBVTT\n\n1\n00:00:00.115 --> 00:00:01.300\nRates.\n\n2\n00:00:01.315 --> 00:00:04.000\nFirst sentence here.\n");

    const res = await call(`/v1/podcasts/transcripts/${a.slug}.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await res.json()).toEqual({
      version: "1.0.0",
      segments: MEASURED.map(([, body, startTime, endTime]) => ({ startTime, endTime, body })),
    });
    expect((await call(`/v1/podcasts/transcripts/${a.slug}.json`, { method: "HEAD" })).status).toBe(200);
  });

  it("audio without word timings gets words estimated within each paragraph's recorded span, and without paragraph starts over the whole", async () => {
    const a = await readyArticle({ title: "Rates", bodyText: "First sentence here." }, { duration: 4 });
    await timeArticle(a, [0.1, 1.3]);
    const { segments } = await (await call(`/v1/podcasts/transcripts/${a.slug}.json`)).json<{
      segments: { startTime: number; endTime: number; body: string }[];
    }>();
    expect(segments.map((s) => s.body)).toEqual(["Rates.", "First", "sentence", "here."]);
    expect(segments[0].startTime).toBe(0.1);
    expect(segments[1].startTime).toBe(1.3);
    expect(segments.at(-1)!.endTime).toBeLessThanOrEqual(4);
    const b = await readyArticle({ title: "Old", bodyText: "Rendered before timings." }, { duration: 3 });
    const old = await (await call(`/v1/podcasts/transcripts/${b.slug}.json`)).json<{ segments: { startTime: number; body: string }[] }>();
    expect(old.segments.map((s) => s.body)).toEqual(["Old.", "Rendered", "before", "timings."]);
    expect(old.segments[0].startTime).toBe(0);
  });

  it("the JSON transcript and the chapters are 404 for stubs, private articles, articles without audio and unknown slugs", async () => {
    const stub = await readyArticle({ visibility: "publisher_only" });
    const { listener } = await feedListener();
    const priv = await readyArticle({ visibility: "listener_private", ownerListenerId: listener.id });
    const silent = await addArticle();
    for (const slug of [stub.slug, priv.slug, silent.slug, "no-such-article"]) {
      expect((await call(`/v1/podcasts/transcripts/${slug}.json`)).status, slug).toBe(404);
      expect((await call(`/v1/podcasts/chapters/${slug}.json`)).status, slug).toBe(404);
    }
  });
});

describe("JSON chapters (podcast:chapters)", () => {
  it("start at each heading of the article, exactly where its paragraph starts", async () => {
    const a = await readyArticle(
      { title: "Tides", bodyText: "Why tides matter to every harbour.\n\nHow the table is built\n\nIt adds waves.\n\n## Accuracy\n\nIt is rarely wrong." },
      { duration: 30 },
    );
    await timeArticle(a, [0.1, 2.5, 6.25, 8.125, 12.5, 14.0625]);
    const res = await call(`/v1/podcasts/chapters/${a.slug}.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json+chapters");
    expect(await res.json()).toEqual({
      version: "1.2.0",
      title: "Tides",
      chapters: [
        { startTime: 0, title: "Tides" },
        { startTime: 6.25, title: "How the table is built" },
        { startTime: 12.5, title: "Accuracy" },
      ],
    });
  });

  it("without headings, group the paragraphs into chapters of about a minute, named by their opening words", () => {
    const paragraphs = ["Title.", ...Array.from({ length: 8 }, (_, i) => `Paragraph ${i} tells the story of the harbour and its tides at length.`)];
    const starts = [0.1, 1, 31, 61, 91, 121, 151, 181, 211];
    const { chapters } = chaptersOf("Title", paragraphs, starts, 240);
    // Four minutes: four chapters, each beginning at a paragraph's recorded start.
    expect(chapters.map((c) => c.startTime)).toEqual([0, 61, 121, 181]);
    expect(chapters[1].title).toBe("Paragraph 2 tells the story of the harbour…");
    // A short article still gets two: the second from the first paragraph past the middle of the audio.
    expect(chaptersOf("T", ["T.", "One two.", "Three four.", "Five six."], [0.1, 1, 5, 9], 12).chapters.map((c) => c.startTime)).toEqual([0, 9]);
  });

  it("tell a heading from prose", () => {
    expect(headingOf("How the table is built")).toBe("How the table is built");
    expect(headingOf("## Accuracy ##")).toBe("Accuracy");
    expect(headingOf("It adds waves.")).toBeNull();
    expect(headingOf("A line that runs on and on and on without a full stop but far too long to be any kind of heading")).toBeNull();
  });
});

describe("every feed path: each item's transcripts and chapters answer", () => {
  it("public, creator and private feeds link a WebVTT and a JSON transcript and JSON chapters that parse", async () => {
    await forgetEdgeCache(PUBLIC_FEED_PATHS);
    const { feedToken } = await feedListener(["tech"]);
    const creator = await env.DB.prepare("INSERT INTO creators (slug, name) VALUES ('ada', 'Ada Writes') RETURNING id").first<{ id: number }>();
    await readyArticle({ title: "Everywhere", vertical: "tech", host: "tech", declassified: true, creatorId: creator!.id });
    const feeds = [
      ...PUBLIC_FEED_PATHS.map((path) => ({ path, locked: false })),
      { path: "/v1/podcasts/creator/ada.xml", locked: false },
      { path: `/v1/podcasts/u/${feedToken}.xml`, locked: true },
    ];
    const carrying: string[] = [];
    for (const { path, locked } of feeds) {
      // Every path is valid with its channel's podcast:txt, items or none.
      const { feed, problems } = validatePodcastFeed(await (await call(path)).text(), { locked });
      expect(problems, path).toEqual([]);
      if (feed!.items?.length) carrying.push(path);
      for (const item of feed!.items ?? []) {
        const urls = [...item.podcast!.transcripts!.map((t) => [t.url!, t.type!]), [item.podcast!.chapters!.url!, item.podcast!.chapters!.type!]];
        for (const [url, type] of urls) {
          const res = await call(url);
          expect(res.status, url).toBe(200);
          expect(res.headers.get("content-type"), url).toContain(type);
          const body = await res.text();
          if (type === "text/vtt") expect(body).toMatch(/^WEBVTT\n/);
          if (type === "application/json") expect(JSON.parse(body)).toMatchObject({ version: "1.0.0", segments: expect.any(Array) });
          if (type === "application/json+chapters")
            expect(JSON.parse(body)).toMatchObject({ version: "1.2.0", chapters: [{ startTime: 0, title: "Everywhere" }] });
        }
      }
    }
    // Each kind of feed carried the article: trending, declassified, a vertical, a host, the creator's, the private one.
    for (const path of [
      "/v1/podcasts/service.xml",
      "/v1/podcasts/service-declassified.xml",
      "/v1/podcasts/service-tech.xml",
      "/v1/podcasts/creator/ada.xml",
      `/v1/podcasts/u/${feedToken}.xml`,
    ]) {
      expect(carrying).toContain(path);
    }
  });
});

describe("webVtt", () => {
  it("splits long text into cues of at most 160 characters whose times cover the duration in order", () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says a few words about the story.`).join(" ");
    const vtt = webVtt([{ text, start: 0 }], 200);
    const cues = vtt.split("\n\n").slice(1);
    expect(cues.length).toBeGreaterThan(5);
    let last = 0;
    for (const cue of cues) {
      const [, timing, body] = cue.trim().split("\n");
      const [from, to] = timing.split(" --> ").map((t) => {
        const [h, m, s] = t.split(":");
        return Number(h) * 3600 + Number(m) * 60 + Number(s);
      });
      expect(from).toBeCloseTo(last, 2);
      expect(to).toBeGreaterThan(from);
      expect(body.length).toBeLessThanOrEqual(160);
      last = to;
    }
    expect(last).toBeCloseTo(200, 2);
  });
});
