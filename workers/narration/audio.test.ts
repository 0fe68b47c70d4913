import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../core/crypto";
import { mp3RedirectUrl } from "./audio-redirect";
import { audioObjectPath, c2paSidecarPath } from "../kernel/audio-objects";
import { forgetCopies } from "../core/edge-cache";
import { callWith, FakeRender, fakeBytes } from "../../test/support/narration";
import { testVars } from "../../test/vars";
import { addArticle } from "../../test/support/articles";

afterEach(() => vi.restoreAllMocks());

/**
 * Renders a unique text through the fake as a public article's narration and returns its key (the MP3
 * exists, Opus/WAV do not): only public audio is reached by its key (audio-access.ts).
 */
async function rendered(render = new FakeRender()) {
  const { key } = await render.render({ text: `audio test ${crypto.randomUUID()}` });
  await addArticle({ audioKey: key });
  return key;
}

describe("GET /v1/audio/{key}.mp3 streamed from R2", () => {
  it("200 with type, length, ETag, immutable caching and the exact bytes", async () => {
    const key = await rendered();
    const res = await callWith(null, `/v1/audio/${key}.mp3`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("etag")).toMatch(/^".+"$/);
    expect(res.headers.get("content-length")).toBe("1000");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(fakeBytes(key, "mp3"));
  });

  it("206 for Range: bytes=0-1 (Apple Podcasts' first request) and for a middle range", async () => {
    const key = await rendered();
    const bytes = fakeBytes(key, "mp3");
    const first = await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: "bytes=0-1" } });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe("bytes 0-1/1000");
    expect(first.headers.get("content-length")).toBe("2");
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(bytes.slice(0, 2));
    const mid = await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: "bytes=100-199" } });
    expect(mid.status).toBe(206);
    expect(mid.headers.get("content-range")).toBe("bytes 100-199/1000");
    expect(new Uint8Array(await mid.arrayBuffer())).toEqual(bytes.slice(100, 200));
    const tail = await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: "bytes=-10" } });
    expect(tail.headers.get("content-range")).toBe("bytes 990-999/1000");
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(990));
  });

  it("HEAD answers the headers with Content-Length and no body", async () => {
    const key = await rendered();
    const res = await callWith(null, `/v1/audio/${key}.mp3`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("1000");
    expect(res.headers.get("content-type")).toBe("audio/mpeg");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(await res.text()).toBe("");
  });

  it("304 for a matching If-None-Match", async () => {
    const key = await rendered();
    const etag = (await callWith(null, `/v1/audio/${key}.mp3`, { method: "HEAD" })).headers.get("etag")!;
    const res = await callWith(null, `/v1/audio/${key}.mp3`, { headers: { "If-None-Match": etag } });
    expect(res.status).toBe(304);
  });

  it("serves repeats from the edge cache, ranges included, even after the object is gone", async () => {
    const key = await rendered();
    expect((await callWith(null, `/v1/audio/${key}.mp3`)).status).toBe(200);
    await env.AUDIO.delete(audioObjectPath(key, "mp3"));
    const again = await callWith(null, `/v1/audio/${key}.mp3`);
    expect(again.status).toBe(200);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(fakeBytes(key, "mp3"));
    const ranged = await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: "bytes=10-19" } });
    expect(ranged.status).toBe(206);
    expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(fakeBytes(key, "mp3").slice(10, 20));
  });

  it("answers repeats from the isolate's copy once the edge entry and the object are gone", async () => {
    const key = await rendered();
    const url = new URL(`/v1/audio/${key}.mp3`, testVars.BASE_URL).href;
    const etag = (await callWith(null, `/v1/audio/${key}.mp3`)).headers.get("etag")!;
    await env.AUDIO.delete(audioObjectPath(key, "mp3"));
    await caches.default.delete(url);
    const bytes = fakeBytes(key, "mp3");
    const whole = await callWith(null, `/v1/audio/${key}.mp3`);
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes);
    const ranged = await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: "bytes=10-19" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe("bytes 10-19/1000");
    expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(bytes.slice(10, 20));
    expect((await callWith(null, `/v1/audio/${key}.mp3`, { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: "bytes=1000-" } })).status).toBe(416);
    // Without the copy nothing is left: the answers above came from it.
    forgetCopies();
    expect((await callWith(null, `/v1/audio/${key}.mp3`)).status).toBe(404);
  });

  it("copies an edge hit, ranged or whole, into the isolate", async () => {
    const cases: Record<string, string>[] = [{ Range: "bytes=0-1" }, {}];
    for (const headers of cases) {
      const key = await rendered();
      const url = new URL(`/v1/audio/${key}.mp3`, testVars.BASE_URL).href;
      expect((await callWith(null, `/v1/audio/${key}.mp3`)).status).toBe(200);
      await env.AUDIO.delete(audioObjectPath(key, "mp3"));
      forgetCopies(); // as in another isolate: only the edge has the episode
      const hit = await callWith(null, `/v1/audio/${key}.mp3`, { headers });
      expect(hit.status).toBe("Range" in headers ? 206 : 200);
      // The Cache API's response has immutable headers: marked for browsers all the same.
      expect(hit.headers.get("access-control-allow-origin")).toBe("*");
      await hit.arrayBuffer();
      await caches.default.delete(url);
      const again = await callWith(null, `/v1/audio/${key}.mp3`);
      expect(new Uint8Array(await again.arrayBuffer())).toEqual(fakeBytes(key, "mp3"));
    }
  });

  it("a first ranged request stores the whole object in the edge cache", async () => {
    const key = await rendered();
    expect((await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: "bytes=0-1" } })).status).toBe(206);
    await env.AUDIO.delete(audioObjectPath(key, "mp3"));
    const again = await callWith(null, `/v1/audio/${key}.mp3`);
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBe(1000);
  });

  it("404 for an unknown key or encoding, 422 for a malformed key", async () => {
    const res = await callWith(new FakeRender(), `/v1/audio/${"0".repeat(64)}.mp3`);
    expect(res.status).toBe(404);
    expect((await callWith(null, "/v1/audio/nothex.mp3")).status).toBe(422);
    expect((await callWith(null, `/v1/audio/${"A".repeat(64)}.mp3`)).status).toBe(422);
    expect((await callWith(null, `/v1/audio/${"0".repeat(64)}.flac`)).status).toBe(404);
  });

  it("416 for a range past the end", async () => {
    const key = await rendered();
    const res = await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: "bytes=5000-6000" } });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe("bytes */1000");
  });

  it("416 for bytes=-0: a suffix-range is satisfiable only with a non-zero suffix-length (RFC 9110 §14.1.1)", async () => {
    const key = await rendered();
    const res = await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: "bytes=-0" } });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe("bytes */1000");
    expect(await res.arrayBuffer()).toHaveProperty("byteLength", 0);
  });
});

/**
 * R2 as deployed reports a suffix range (`bytes=-N`) as `range: { suffix: N }`; local R2 reports
 * every range as an offset and a length, so without this the route's suffix arithmetic never runs.
 */
function deployedR2(): R2Bucket {
  return new Proxy(env.AUDIO, {
    get(bucket, prop) {
      if (prop === "get") {
        return async (key: string, options?: R2GetOptions) => {
          const obj = await bucket.get(key, options);
          const asked = options?.range instanceof Headers ? options.range.get("range") : null;
          const suffix = asked ? /^bytes=-(\d+)$/.exec(asked) : null;
          if (!obj || !suffix || !("body" in obj)) return obj;
          const { body, size, httpEtag, uploaded, etag, httpMetadata } = obj;
          return { key, body, size, httpEtag, uploaded, etag, httpMetadata, range: { suffix: Number(suffix[1]) } };
        };
      }
      const value = Reflect.get(bucket, prop);
      return typeof value === "function" ? value.bind(bucket) : value;
    },
  });
}

describe("GET /v1/audio/{key}.mp3 suffix ranges on a cache miss", () => {
  // planted: `size - range.suffix` -> `size - range.suffix + 1` in servedSpan (workers/core/byte-ranges.ts).
  it("206 with the last N bytes as deployed R2 serves them, all of them when N is the size or more (RFC 9110 §14.1.2)", async () => {
    for (const [suffix, start] of [
      [10, 990],
      [1, 999],
      [2000, 0],
    ]) {
      const key = await rendered();
      const res = await callWith(null, `/v1/audio/${key}.mp3`, { headers: { Range: `bytes=-${suffix}` } }, { AUDIO: deployedR2() } as unknown as Record<
        string,
        string
      >);
      expect(res.status, `bytes=-${suffix}`).toBe(206);
      expect(res.headers.get("content-range"), `bytes=-${suffix}`).toBe(`bytes ${start}-999/1000`);
      expect(res.headers.get("content-length"), `bytes=-${suffix}`).toBe(String(1000 - start));
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(fakeBytes(key, "mp3").slice(start));
    }
  });
});

type Validators = { etag: string; lastModified: string };
const minuteBefore = (date: string) => new Date(Date.parse(date) - 60_000).toUTCString();

/** A request's preconditions with the status RFC 9110 §13.2.2 gives them against the current audio. */
const PRECONDITIONS: [string, number, (v: Validators) => Record<string, string>][] = [
  ["§13.1.1: If-Match naming another version", 412, () => ({ "If-Match": '"other"' })],
  ["§13.1.1: If-Match with its ETag made weak (the strong comparison)", 412, (v) => ({ "If-Match": `W/${v.etag}` })],
  ["§13.2.2: a failed If-Match beside a matching If-None-Match", 412, (v) => ({ "If-Match": '"other"', "If-None-Match": v.etag })],
  ["§13.1.4: If-Unmodified-Since before Last-Modified", 412, (v) => ({ "If-Unmodified-Since": minuteBefore(v.lastModified) })],
  ["§13.1.1: If-Match listing its ETag", 200, (v) => ({ "If-Match": `"other", ${v.etag}` })],
  ["§13.1.1: If-Match *", 200, () => ({ "If-Match": "*" })],
  ["§13.1.4: If-Unmodified-Since at Last-Modified", 200, (v) => ({ "If-Unmodified-Since": v.lastModified })],
  [
    "§13.1.4: If-Unmodified-Since, ignored beside a matching If-Match",
    200,
    (v) => ({ "If-Match": v.etag, "If-Unmodified-Since": minuteBefore(v.lastModified) }),
  ],
  ["§13.2.2: a matching If-Match, then a matching If-None-Match", 304, (v) => ({ "If-Match": v.etag, "If-None-Match": v.etag })],
  ["§13.2.2: a matching If-Match, then a Range", 206, (v) => ({ "If-Match": v.etag, Range: "bytes=0-1" })],
  ["§13.1.3: If-Modified-Since at Last-Modified", 304, (v) => ({ "If-Modified-Since": v.lastModified })],
];

/** Where the answer comes from: each prepares a fresh key so that only it can answer. */
const SOURCES: Record<string, (key: string) => Promise<void>> = {
  "R2 on a cache miss": async () => {},
  "the isolate's copy": async (key) => {
    expect((await callWith(null, `/v1/audio/${key}.mp3`)).status).toBe(200);
    await env.AUDIO.delete(audioObjectPath(key, "mp3"));
    await caches.default.delete(new URL(`/v1/audio/${key}.mp3`, testVars.BASE_URL).href);
  },
  "the edge cache": async (key) => {
    expect((await callWith(null, `/v1/audio/${key}.mp3`)).status).toBe(200);
    await env.AUDIO.delete(audioObjectPath(key, "mp3"));
    forgetCopies();
  },
};

describe("HEAD /v1/audio/{key}.mp3 preconditions", () => {
  it("412 for a failed If-Match, 304 for a matching If-None-Match, as GET answers them", async () => {
    const key = await rendered();
    const etag = (await callWith(null, `/v1/audio/${key}.mp3`, { method: "HEAD" })).headers.get("etag")!;
    expect((await callWith(null, `/v1/audio/${key}.mp3`, { method: "HEAD", headers: { "If-Match": '"other"' } })).status).toBe(412);
    expect((await callWith(null, `/v1/audio/${key}.mp3`, { method: "HEAD", headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await callWith(null, `/v1/audio/${key}.mp3`, { method: "HEAD", headers: { "If-Match": etag } })).status).toBe(200);
  });
});

// planted: answer 304 where preconditionFailed answers 412 (workers/core/conditional.ts), or keep
// the route's old `has("if-none-match") ? 304 : 412` on R2's failed precondition.
describe.each(Object.keys(SOURCES))("GET /v1/audio/{key}.mp3 preconditions answered from %s", (source) => {
  it.each(PRECONDITIONS)("%s: %i", async (_, status, headersFor) => {
    const key = await rendered();
    const head = await callWith(null, `/v1/audio/${key}.mp3`, { method: "HEAD" });
    const validators = { etag: head.headers.get("etag")!, lastModified: head.headers.get("last-modified")! };
    await SOURCES[source](key);
    const res = await callWith(null, `/v1/audio/${key}.mp3`, { headers: headersFor(validators) });
    expect(res.status).toBe(status);
    const body = new Uint8Array(await res.arrayBuffer());
    if (status === 200) expect(body).toEqual(fakeBytes(key, "mp3"));
    else if (status === 206) expect(body).toEqual(fakeBytes(key, "mp3").slice(0, 2));
    else expect(body).toHaveLength(0);
    if (status === 412) expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("GET /v1/audio/{key}.opus|.wav built on first request", () => {
  for (const [format, type] of [
    ["opus", "audio/ogg; codecs=opus"],
    ["wav", "audio/wav"],
  ] as const) {
    it(`${format}: encodes once through RENDER, then serves the stored object`, async () => {
      const render = new FakeRender();
      const key = await rendered(render);
      const res = await callWith(render, `/v1/audio/${key}.${format}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(fakeBytes(key, format));
      const head = await callWith(render, `/v1/audio/${key}.${format}`, { method: "HEAD" });
      expect(head.headers.get("content-length")).toBe("1000");
      expect(render.encodes).toEqual([[key, format]]);
    });
  }

  it("404 when the key is unknown to the render Worker", async () => {
    const render = new FakeRender();
    const key = await sha256Hex("never rendered");
    await addArticle({ audioKey: key });
    expect((await callWith(render, `/v1/audio/${key}.opus`)).status).toBe(404);
    expect(render.encodes).toEqual([[key, "opus"]]);
  });
});

describe("GET /v1/audio/{key}.c2pa: the Opus's C2PA manifest, named by its Link header", () => {
  it("an Opus with a manifest names it (rel=c2pa-manifest, relative to its own URL), and the link answers the manifest", async () => {
    const render = new FakeRender();
    const key = await rendered(render);
    const manifest = Uint8Array.from({ length: 300 }, (_, i) => i % 251);
    await env.AUDIO.put(c2paSidecarPath(key), manifest);
    for (const method of ["GET", "HEAD"]) {
      const res = await callWith(render, `/v1/audio/${key}.opus`, { method });
      expect(res.status).toBe(200);
      expect(res.headers.get("link")).toBe(`<${key}.c2pa>; rel="c2pa-manifest"`);
      await res.body?.cancel();
    }
    const target = new URL(`${key}.c2pa`, `https://narration.test/v1/audio/${key}.opus`).pathname;
    const res = await callWith(render, target);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/c2pa");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(manifest);
    // The MP3 embeds its own manifest: no link there.
    const mp3 = await callWith(render, `/v1/audio/${key}.mp3`);
    expect(mp3.headers.get("link")).toBeNull();
    await mp3.body?.cancel();
  });

  it("no manifest stored (signing off): no Link on the Opus, and 404 for the manifest", async () => {
    const render = new FakeRender();
    const key = await rendered(render);
    const res = await callWith(render, `/v1/audio/${key}.opus`);
    expect(res.headers.get("link")).toBeNull();
    await res.body?.cancel();
    expect((await callWith(render, `/v1/audio/${key}.c2pa`)).status).toBe(404);
  });

  it("a private audio's manifest is no more reachable by its content key than the audio", async () => {
    const { key } = await new FakeRender().render({ text: `private manifest ${crypto.randomUUID()}` });
    await addArticle({ audioKey: key, visibility: "publisher_only" });
    await env.AUDIO.put(c2paSidecarPath(key), new Uint8Array(64));
    const res = await callWith(null, `/v1/audio/${key}.c2pa`);
    expect(res.status).toBe(404);
  });
});

describe("GET /v1/audio/{key}.mp3 redirects (docs/rules.md 4)", () => {
  it("302 to the public bucket URL when R2_PUBLIC_URL is set", async () => {
    const key = await rendered();
    const res = await callWith(null, `/v1/audio/${key}.mp3`, { redirect: "manual" }, { R2_PUBLIC_URL: "https://audio.example.test/" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`https://audio.example.test/audio/${key}.mp3`);
    const unknown = await callWith(null, `/v1/audio/${"1".repeat(64)}.mp3`, {}, { R2_PUBLIC_URL: "https://audio.example.test" });
    expect(unknown.status).toBe(404);
  });

  it("302 to a SigV4 presigned URL valid one hour when S3 credentials are set", async () => {
    const key = await rendered();
    const creds = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "secret", R2_ACCOUNT_ID: "acct123", R2_PUBLIC_URL: "" };
    const res = await callWith(null, `/v1/audio/${key}.mp3`, {}, creds);
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get("location")!);
    expect(`${url.origin}${url.pathname}`).toBe(`https://acct123.r2.cloudflarestorage.com/narration-audio/audio/${key}.mp3`);
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("3600"); // docs/agents/tools.md "Limits": presigned URLs 1 hour
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^AKIDEXAMPLE\/\d{8}\/auto\/s3\/aws4_request$/);
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    const date = url.searchParams.get("X-Amz-Date")!;
    expect(Math.abs(Date.parse(date.replace(/(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/, "$1-$2-$3T$4:$5:$6Z")) - Date.now())).toBeLessThan(60_000);
  });

  it("the presigned URL is the standard SigV4 query signature (known vector)", async () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-21T12:00:00Z"), toFake: ["Date"] });
    try {
      const url = await mp3RedirectUrl(
        { ...env, R2_PUBLIC_URL: "", R2_ACCESS_KEY_ID: "AKID", R2_SECRET_ACCESS_KEY: "SECRET", R2_ACCOUNT_ID: "acct", R2_BUCKET_NAME: "bucket" },
        "a".repeat(64),
        true,
      );
      expect(url).toBe(
        `https://acct.r2.cloudflarestorage.com/bucket/audio/${"a".repeat(64)}.mp3?X-Amz-Expires=3600&X-Amz-Date=20261121T120000Z` +
          `&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKID%2F20261121%2Fauto%2Fs3%2Faws4_request&X-Amz-SignedHeaders=host` +
          `&X-Amz-Signature=${await expectedSignature()}`,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it(".opus and .wav never redirect", async () => {
    const render = new FakeRender();
    const key = await rendered(render);
    const res = await callWith(render, `/v1/audio/${key}.opus`, {}, { R2_PUBLIC_URL: "https://audio.example.test" });
    expect(res.status).toBe(200);
  });
});

/** SigV4 (AWS docs, "Authenticating requests: using query parameters") computed independently of aws4fetch. */
async function expectedSignature(): Promise<string> {
  const enc = new TextEncoder();
  const hmac = async (key: ArrayBuffer | Uint8Array, data: string) =>
    crypto.subtle.sign("HMAC", await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]), enc.encode(data));
  const path = `/bucket/audio/${"a".repeat(64)}.mp3`;
  const query =
    "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKID%2F20261121%2Fauto%2Fs3%2Faws4_request" +
    "&X-Amz-Date=20261121T120000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host";
  const canonical = ["GET", path, query, "host:acct.r2.cloudflarestorage.com\n", "host", "UNSIGNED-PAYLOAD"].join("\n");
  const toSign = ["AWS4-HMAC-SHA256", "20261121T120000Z", "20261121/auto/s3/aws4_request", await sha256Hex(canonical)].join("\n");
  let key: ArrayBuffer = await hmac(enc.encode("AWS4SECRET"), "20261121");
  for (const part of ["auto", "s3", "aws4_request"]) key = await hmac(key, part);
  return Array.from(new Uint8Array(await hmac(key, toSign)), (b) => b.toString(16).padStart(2, "0")).join("");
}
