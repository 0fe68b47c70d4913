import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../core/crypto";
import { PRESIGNED_URL_SECONDS, mp3RedirectUrl } from "./audio-redirect";
import { audioObjectPath } from "../kernel/audio-objects";
import { forgetCopies } from "../core/edge-cache";
import { callWith, FakeRender, fakeBytes } from "../../test/support/narration";
import { testVars } from "../../test/vars";

afterEach(() => vi.restoreAllMocks());

/** Renders a unique text through the fake and returns its key (the MP3 exists, Opus/WAV do not). */
async function rendered(render = new FakeRender()) {
  const { key } = await render.render({ text: `audio test ${crypto.randomUUID()}` });
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
    expect((await callWith(render, `/v1/audio/${key}.opus`)).status).toBe(404);
    expect(render.encodes).toEqual([[key, "opus"]]);
  });
});

describe("GET /v1/audio/{key}.mp3 redirects (README Rules 4)", () => {
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
    expect(url.searchParams.get("X-Amz-Expires")).toBe(String(PRESIGNED_URL_SECONDS));
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
