import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { addArticle } from "../../test/support/articles";
import { feedListener, readyArticle } from "../../test/support/feeds";
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
    const vtt = webVtt(text, 200);
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
