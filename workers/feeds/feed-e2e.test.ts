import { describe, expect, it } from "vitest";
import { call } from "../../test/support/client";
import { pollJob, publishSigned } from "../../test/support/publish";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { forgetEdgeCache } from "../../test/support/feeds";

// The real pipeline (signed publish → queue → render Worker → R2 + audio_objects) feeding a feed:
// the enclosure length in the feed is the size of the bytes a podcast client downloads.

async function publishAndRender(article: Record<string, unknown>) {
  const res = await publishSigned(article);
  expect(res.status).toBe(200);
  return pollJob((await res.json<{ job_id: string }>()).job_id);
}

describe("a published article becomes an episode", () => {
  it("publish → render → the host feed lists it with the exact MP3 and Opus sizes, and the enclosure serves ranges", async () => {
    await forgetEdgeCache(["/v1/podcasts/service-sports.xml"]);
    const job = await publishAndRender({
      title: "Late Winner at the Harbour Ground",
      publisher: "Evening Post",
      vertical: "sports",
      host: "sports",
      summary: "A last-minute goal settles the derby.",
      body_text: "The derby was level until the final minute. Then the captain struck from distance.",
    });
    expect(job.state).toBe("done");

    const { feed, problems } = validatePodcastFeed(await (await call("/v1/podcasts/service-sports.xml")).text(), { locked: false });
    expect(problems).toEqual([]);
    const [item] = feed!.items!;
    expect(item.title).toBe("Late Winner at the Harbour Ground");
    const { url, length } = item.enclosures![0];
    expect(url).toBe(job.audio_url);

    const path = new URL(url!).pathname;
    const whole = new Uint8Array(await (await call(path)).arrayBuffer());
    expect(whole.length).toBe(length);
    const first = await call(path, { headers: { Range: "bytes=0-1" } });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-1/${length}`);
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(whole.slice(0, 2));

    // The Opus was built with the MP3: its alternate enclosure carries the exact size from the start.
    const [opus] = item.podcast!.alternateEnclosures!;
    expect(opus.length).toBe((await (await call(new URL(opus.sources![0].uri!).pathname)).arrayBuffer()).byteLength);

    const transcript = await call(new URL(item.podcast!.transcripts![0].url!).pathname);
    expect(transcript.status).toBe(200);
    const vtt = await transcript.text();
    expect(vtt).toContain("Then the captain struck from distance.");
    // The render recorded where each paragraph starts: the title is its own cue, from the end of the 0.1 s lead-in.
    expect(vtt).toMatch(/^WEBVTT\n\n1\n00:00:00\.100 --> [\d:.]+\nLate Winner at the Harbour Ground\.\n\n2\n/);
  });
});
