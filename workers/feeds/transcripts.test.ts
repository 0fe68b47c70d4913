import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { feedListener, readyArticle } from "../../test/support/feeds";
import { audioObjects, database } from "../db";
import { webVtt } from "./vtt";

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
    await database(env).update(audioObjects).set({ paragraphStarts: [2400, 120_000, 192_000, 480_000] }).where(eq(audioObjects.key, a.audioKey!));
    const vtt = await (await call(`/v1/podcasts/transcripts/${a.slug}.vtt`)).text();
    const cues = vtt.trim().split("\n\n").slice(1).map((c) => c.split("\n"));
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
