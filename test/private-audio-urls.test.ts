import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { issuePublisherKey } from "../workers/kernel/publisher-keys";
import { audioObjectPath } from "../workers/kernel/audio-objects";
import { apiKeyHeaders, call, jsonBody } from "./support/client";
import { feedListener, readyArticle } from "./support/feeds";
import { callWith, FakeRender, fakeBytes } from "./support/narration";

/**
 * Issue 40 item 2 (DESIGN.md "Contracts added in turn 4", Security): the URL of private narration is a
 * capability the text alone cannot give. The attacker below knows (or guesses) the text, so they know its
 * cache key, the content address of the audio; each request is one they would send without the URL the
 * service handed to the audio's owner.
 */

const FORMATS = ["mp3", "opus", "wav"] as const;

/** Every way of asking for `key`'s audio by its content address, with no credential: all must be unknown. */
async function expectUnreachableByKey(key: string) {
  for (const format of FORMATS) {
    for (const method of ["GET", "HEAD"]) {
      const res = await call(`/v1/audio/${key}.${format}`, { method, ip: "198.51.100.70" });
      expect(res.status, `${method} ${format}`).toBe(404);
      await res.body?.cancel();
    }
  }
}

/** The path and query of an absolute URL the service handed out. */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

describe("a listener_private article's audio", () => {
  it("is not served by its content key, and its owner's feed and listings carry a capability that plays it", async () => {
    const { listener, feedToken, accountToken } = await feedListener(["tech"]);
    const article = await readyArticle({
      title: "Your sign-in code",
      bodyText: "Your sign-in code is 492817.",
      vertical: "tech",
      visibility: "listener_private",
      ownerListenerId: listener.id,
    });
    const key = article.audioKey!;
    await expectUnreachableByKey(key);

    const feed = await (await call(`/v1/podcasts/u/${feedToken}.xml`)).text();
    const enclosure = /<enclosure url="([^"]+)"/.exec(feed)?.[1];
    expect(enclosure).toBeDefined();
    expect(enclosure).not.toContain(key);
    const listing = await (await call(`/v1/listeners/${accountToken}/feed`)).json<{ items: { slug: string; audio_url: string | null }[] }>();
    expect(listing.items.find((a) => a.slug === article.slug)?.audio_url).toBe(enclosure);

    // The capability plays the audio, ranges and all, and no shared cache may keep it.
    const played = await call(pathOf(enclosure!));
    expect(played.status).toBe(200);
    expect(played.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    const stored = new Uint8Array(await (await env.AUDIO.get(audioObjectPath(key, "mp3")))!.arrayBuffer());
    expect(new Uint8Array(await played.arrayBuffer())).toEqual(stored);
    const ranged = await call(pathOf(enclosure!), { headers: { Range: "bytes=0-1" } });
    expect(ranged.status).toBe(206);
    expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(stored.slice(0, 2));

    // A capability altered by one character opens nothing.
    const name = /\/v1\/audio\/([^.]+)\.mp3$/.exec(enclosure!)![1];
    const forged = `${name.slice(0, 10)}${name[10] === "A" ? "B" : "A"}${name.slice(11)}`;
    const refused = await call(`/v1/audio/${forged}.mp3`);
    expect(refused.status).toBe(404);
  });
});

describe("a raw render's audio", () => {
  it("is reached only by the capability in the render response, whatever key a publisher holds", async () => {
    const render = new FakeRender();
    const res = await callWith(render, "/v1/render", {
      ...jsonBody("POST", { text: "Another publisher's paywalled paragraph." }),
      headers: { ...apiKeyHeaders, "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    const body = await res.json<{ key: string; audio_url: string; opus_url: string }>();
    expect(body.audio_url).not.toContain(body.key);
    await expectUnreachableByKey(body.key);
    // Another tenant's API key does not open it either: it narrates no article of theirs.
    const { key: otherKey } = await issuePublisherKey(env, "Rival Daily");
    const rival = await call(`/v1/audio/${body.key}.mp3`, { headers: { Authorization: `Bearer ${otherKey}` } });
    expect(rival.status).toBe(404);

    const played = await callWith(render, pathOf(body.audio_url));
    expect(played.status).toBe(200);
    expect(new Uint8Array(await played.arrayBuffer())).toEqual(fakeBytes(body.key, "mp3"));
    const opus = await callWith(render, pathOf(body.opus_url));
    expect(opus.status).toBe(200);
    expect(new Uint8Array(await opus.arrayBuffer())).toEqual(fakeBytes(body.key, "opus"));
  });
});

describe("a public article's audio", () => {
  it("keeps its URL by content key, shared caching and all", async () => {
    const article = await readyArticle({ vertical: "tech" });
    const record = await (await call(`/v1/articles/${article.slug}`)).json<{ audio_url: string }>();
    expect(record.audio_url).toBe(`${env.BASE_URL}/v1/audio/${article.audioKey}.mp3`);
    const res = await call(`/v1/audio/${article.audioKey}.mp3`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    await res.body?.cancel();
  });
});
