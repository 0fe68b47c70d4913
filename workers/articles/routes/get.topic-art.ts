import * as v from "valibot";
import { sha256Hex } from "../../core/crypto";
import { route } from "../../core/route";
import { renderArt } from "../art-render";

/** Bump when the generator changes: new keys, so cached art of the old look is never mixed in. */
const ART_VERSION = 1;
/** Podcast directories want square covers of 1400 to 3000 px; 3000 is also the CPU-safe ceiling. */
const MAX_SIDE = 3000;
const MIN_SIDE = 64;
const YEAR_SECONDS = 31_536_000;

const side = (fallback: number, what: string) =>
  v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(MIN_SIDE), v.maxValue(MAX_SIDE), v.description(`${what} in pixels (${MIN_SIDE} to ${MAX_SIDE}).`)),
    fallback,
  );

const hexToBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!, (b) => parseInt(b, 16));

export const topicArt = route({
  method: "GET",
  path: "/v1/topic-art",
  tag: "stories",
  summary: "A generated PNG for a prompt (covers, social cards); public and cached for a year",
  description:
    "Workers AI draws the picture when its binding answers; otherwise deterministic generative art is rendered in the Worker. " +
    "Either way the PNG is stored in R2 on first request and served from there (and the edge cache) afterwards.",
  auth: "none",
  rateLimit: "read",
  query: v.object({
    prompt: v.pipe(v.string(), v.minLength(1), v.maxLength(500), v.description("What the picture is about; the same prompt gives the same picture.")),
    w: side(1200, "Width"),
    h: side(630, "Height"),
    title: v.optional(
      v.pipe(v.string(), v.maxLength(120), v.description("Text written on the picture, such as a podcast's name (ASCII letters; accents are dropped).")),
    ),
  }),
  responses: {
    200: { description: "The image", contentType: "image/png", headers: { "Cache-Control": "public, max-age=31536000, immutable", ETag: "content key" } },
    304: { description: "If-None-Match matched" },
  },
  async handle({ env, ctx, query, request }) {
    // Untitled art keeps the keys it always had.
    const hash = await sha256Hex(JSON.stringify([ART_VERSION, query.prompt, query.w, query.h, ...(query.title ? [query.title] : [])]));
    const etag = `"${hash}"`;
    const headers = {
      "Content-Type": "image/png",
      "Cache-Control": `public, max-age=${YEAR_SECONDS}, immutable`,
      ETag: etag,
    };
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });

    // The edge cache is keyed by the canonical query, so parameter order and defaults share one entry.
    const cacheKey = new Request(`https://topic-art.cache/${hash}.png`);
    const edge = await caches.default.match(cacheKey);
    if (edge) return edge;

    const path = `art/${hash}.png`;
    const stored = await env.AUDIO.get(path);
    let response: Response;
    if (stored) {
      response = new Response(stored.body, { headers: { ...headers, "X-Art-Source": stored.customMetadata?.source ?? "stored" } });
    } else {
      const { png, source } = await renderArt(env.AI, query.prompt, hexToBytes(hash), query.w, query.h, query.title);
      await env.AUDIO.put(path, png, { httpMetadata: { contentType: "image/png" }, customMetadata: { source } });
      response = new Response(png, { headers: { ...headers, "X-Art-Source": source } });
    }
    ctx.waitUntil(caches.default.put(cacheKey, response.clone()));
    return response;
  },
});
