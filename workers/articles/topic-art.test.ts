import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { call } from "../../test/support/client";
import { sha256Hex } from "../core/crypto";
import { AI_IMAGE_MODEL, renderArt } from "./art-render";
import { artSvg, titleSvg } from "./art-svg";

/** Width and height from a PNG's IHDR chunk (PNG spec §11.2.2). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe("GET /v1/topic-art", () => {
  it("renders a deterministic PNG at the default size, public with long cache headers, stored in R2", async () => {
    const res = await call("/v1/topic-art?prompt=ocean%20tides");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-art-source")).toBe("generative");
    const png = new Uint8Array(await res.arrayBuffer());
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    const etag = res.headers.get("etag")!;
    const stored = await env.AUDIO.get(`art/${etag.slice(1, -1)}.png`);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(png);

    const again = await call("/v1/topic-art?prompt=ocean%20tides&w=1200&h=630");
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(png);
    expect((await call("/v1/topic-art?prompt=ocean%20tides", { headers: { "if-none-match": etag } })).status).toBe(304);
    const other = await call("/v1/topic-art?prompt=mountain%20air");
    expect(new Uint8Array(await other.arrayBuffer())).not.toEqual(png);
  });

  it.each([1400, 3000])("renders a square %i px podcast cover", async (n) => {
    const res = await call(`/v1/topic-art?prompt=cover-${n}&w=${n}&h=${n}`);
    expect(res.status).toBe(200);
    expect(pngSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: n, height: n });
  });

  it("answers 422 outside the bounds", async () => {
    for (const qs of ["", "prompt=", `prompt=${"p".repeat(501)}`, "prompt=a&w=63", "prompt=a&w=3001", "prompt=a&h=63", "prompt=a&h=3001", "prompt=a&w=12.5"]) {
      expect((await call(`/v1/topic-art?${qs}`)).status, qs).toBe(422);
    }
  });
});

describe("renderArt with Workers AI bound", () => {
  it("asks the image model and fits its picture to the exact size", async () => {
    const picture = (await renderArt(undefined, "seed picture", new Uint8Array(32), 512, 512)).png;
    const run = vi.fn(async () => new Response(picture).body);
    const got = await renderArt({ run } as unknown as Ai, "harbour at dawn", new Uint8Array(32), 3000, 1500);
    expect(run).toHaveBeenCalledWith(AI_IMAGE_MODEL, { prompt: "harbour at dawn", width: 2048, height: 1024 });
    expect(got.source).toBe("workers-ai");
    expect(pngSize(got.png)).toEqual({ width: 3000, height: 1500 });
  });

  it("falls back to generative art when the model fails, and stops asking for a while", async () => {
    const run = vi.fn(async () => {
      throw new Error("Binding AI needs to be run remotely");
    });
    const ai = { run } as unknown as Ai;
    expect((await renderArt(ai, "p", new Uint8Array(32), 100, 100)).source).toBe("generative");
    expect((await renderArt(ai, "p", new Uint8Array(32), 100, 100)).source).toBe("generative");
    expect(run).toHaveBeenCalledOnce();
  });
});

describe("a title on the art", () => {
  it("is drawn when asked for: the same prompt gives another picture, stored under its own key, and untitled art keeps its key", async () => {
    const plain = await call("/v1/topic-art?prompt=harbour&w=400&h=400");
    const titled = await call("/v1/topic-art?prompt=harbour&w=400&h=400&title=Science%20Briefs");
    expect([plain.status, titled.status]).toEqual([200, 200]);
    expect(titled.headers.get("etag")).not.toBe(plain.headers.get("etag"));
    // The key of untitled art is the one it had before titles existed.
    expect(plain.headers.get("etag")).toBe(`"${await sha256Hex(JSON.stringify([1, "harbour", 400, 400]))}"`);
    expect(new Uint8Array(await titled.arrayBuffer())).not.toEqual(new Uint8Array(await plain.arrayBuffer()));
    expect((await call(`/v1/topic-art?prompt=a&title=${"t".repeat(121)}`)).status).toBe(422);
  });

  it("writes each letter as strokes of the Hershey font, accents dropped and other characters left out", () => {
    const svg = titleSvg("Café ☕ news", 1400, 1400);
    // C, a, f, e, n, e, w, s: eight glyphs; the cup is not drawn and the space is not a path.
    expect(svg.match(/<path /g)).toHaveLength(8);
    expect(svg).toContain('stroke="#fff"');
    expect(titleSvg("☕", 1400, 1400)).toBe("");
    expect(artSvg(new Uint8Array(32), 100, 100)).not.toContain("<path transform");
  });
});
