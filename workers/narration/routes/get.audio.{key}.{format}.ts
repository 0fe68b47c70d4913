import * as v from "valibot";
import { answerFromBytes, outOfRange, servedSpan, unsatisfiable } from "../../core/byte-ranges";
import { evaluatePreconditions, preconditionFailed } from "../../core/conditional";
import { cachedCopy, cachePut, keepCopy, MAX_COPY_BYTES } from "../../core/edge-cache";
import { ApiError } from "../../core/errors";
import { route, type ResponseDoc } from "../../core/route";
import { requireAudioAccess } from "../audio-access";
import { mp3RedirectUrl } from "../audio-redirect";
import { AudioName } from "../audio-name";
import { AUDIO_CONTENT_TYPES, audioObjectPath, c2paSidecarPath } from "../../kernel/audio-objects";
import { countingDownloads } from "../../kernel/download-count";
import { type LazyFormat, renderService } from "../../kernel/render-contract";
import { AUDIO_FORMATS, type AudioFormat } from "../../kernel/public-urls";

/**
 * The bytes behind an audio URL never change (the key is a hash of what was rendered), so
 * responses are cacheable for a year and immutable: Apple Podcasts never revalidates anyway
 * (Apple Podcasts, "Podcast RSS feed requirements"). Range requests (RFC 9110 §14) are answered with 206 by R2 directly, and
 * on repeat from the isolate's copy of the whole object or, for an episode too long to copy, by the
 * edge cache from its stored 200.
 */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** Private audio (audio-access.ts): no shared cache may keep it. */
const IMMUTABLE_PRIVATE = "private, max-age=31536000, immutable";

function headersFor(obj: R2Object, format: AudioFormat, shared: boolean, link: string | null): Headers {
  const headers = new Headers({
    "Content-Type": AUDIO_CONTENT_TYPES[format],
    "Cache-Control": shared ? IMMUTABLE : IMMUTABLE_PRIVATE,
    "Accept-Ranges": "bytes",
    ETag: obj.httpEtag,
    "Last-Modified": obj.uploaded.toUTCString(),
  });
  if (link) headers.set("Link", link);
  return headers;
}

/**
 * The Opus's C2PA manifest is a file of its own (get.audio.{key}.c2pa.ts); its responses name it as C2PA says a
 * validator finds a manifest that is not embedded: `Link: <...>; rel="c2pa-manifest"` (RFC 8288, the IANA-registered
 * relation). Relative to the audio's own URL, so it keeps the name (key or capability) the audio was asked by. Null
 * for the other formats, which embed theirs, and for an Opus without one.
 */
async function manifestLink(env: Env, request: Request, key: string, format: AudioFormat): Promise<string | null> {
  if (format !== "opus" || !(await env.AUDIO.head(c2paSidecarPath(key)))) return null;
  const name = new URL(request.url).pathname
    .split("/")
    .pop()!
    .replace(/\.opus$/, "");
  return `<${name}.c2pa>; rel="c2pa-manifest"`;
}

/** Reads an object, building a lazy encoding (Opus, WAV) from the master once when it is missing. */
async function load<T>(env: Env, key: string, format: AudioFormat, read: (path: string) => Promise<T | null>): Promise<T> {
  const path = audioObjectPath(key, format);
  const first = await read(path);
  if (first !== null) return first;
  if (format !== "mp3" && (await renderService(env).encode(key, format as LazyFormat)) !== null) {
    const built = await read(path);
    if (built !== null) return built;
  }
  throw new ApiError("not_found", "no audio with that key");
}

/**
 * R2 may reject an unsatisfiable range with an error rather than an empty range. The request's
 * preconditions are not handed to R2 (onlyIf): it compares dates to the millisecond, while the
 * Last-Modified a client echoes says whole seconds, so they are evaluated on the headers instead.
 */
async function ranged(env: Env, path: string, request: Request): Promise<R2ObjectBody | Response | null> {
  try {
    return await env.AUDIO.get(path, { range: request.headers });
  } catch (err) {
    const head = await env.AUDIO.head(path);
    if (!head || !request.headers.has("range")) throw err;
    return unsatisfiable(head.size);
  }
}

/**
 * Answers from the edge cache or R2. `shared`: anyone may fetch this audio (audio-access.ts), so the
 * edge and the isolate keep copies of it; a stub's audio is read from R2 every time and kept nowhere.
 */
async function serve(env: Env, ctx: ExecutionContext, request: Request, key: string, format: AudioFormat, shared: boolean): Promise<Response> {
  if (request.method === "HEAD") {
    const obj = await load(env, key, format, (path) => env.AUDIO.head(path));
    const headers = headersFor(obj, format, shared, await manifestLink(env, request, key, format));
    headers.set("Content-Length", String(obj.size));
    return evaluatePreconditions(request, headers) ?? new Response(null, { headers });
  }
  const hit = shared ? await caches.default.match(request) : undefined;
  if (hit) {
    // The Cache API answers If-None-Match, If-Modified-Since and Range, and ignores If-Match and If-Unmodified-Since.
    const failed = preconditionFailed(request, hit.headers);
    if (failed) {
      await hit.body?.cancel();
      return failed;
    }
    copyLater(ctx, request.url, hit);
    return hit;
  }

  const obj = await load(env, key, format, (path) => ranged(env, path, request));
  if (obj instanceof Response) return obj;
  // After the load, which builds an older render's Opus, and with it its manifest, on first request.
  const link = await manifestLink(env, request, key, format);
  const headers = headersFor(obj, format, shared, link);
  // RFC 9110 §13.2.2: a failed If-Match or If-Unmodified-Since is a 412, a current copy a 304, before any range.
  const decided = evaluatePreconditions(request, headers);
  if (decided) {
    await obj.body.cancel();
    return decided;
  }
  const range = request.headers.get("range");
  if (range && obj.range) {
    // R2 answers a range past the end with the whole object; RFC 9110 §14.1.2 makes it unsatisfiable.
    if (outOfRange(obj.size, range)) return unsatisfiable(obj.size);
    const [start, end] = servedSpan(obj.range, obj.size);
    headers.set("Content-Range", `bytes ${start}-${end}/${obj.size}`);
    headers.set("Content-Length", String(end - start + 1));
    // The caches keep only whole 200s, and answer later ranges from one: store the whole object.
    if (shared) {
      ctx.waitUntil(
        env.AUDIO.get(audioObjectPath(key, format)).then((full) => {
          if (full) return cachePut(request.url, new Response(full.body, { headers: withLength(headersFor(full, format, true, link), full.size) }));
        }),
      );
    }
    return new Response(obj.body, { status: 206, headers });
  }
  const response = new Response(obj.body, { headers: withLength(headers, obj.size) });
  if (shared) ctx.waitUntil(cachePut(request.url, response.clone()));
  return response;
}

/**
 * After an edge hit, a copy in the isolate for the next request (another isolate, or this one
 * after a restart, stored the edge entry). A 206 says the whole size in its Content-Range; the
 * whole object is then read once more. Two requests racing here both copy; the second replaces
 * the first.
 */
function copyLater(ctx: ExecutionContext, url: string, hit: Response): void {
  const size = Number((hit.status === 206 ? hit.headers.get("Content-Range")?.split("/")[1] : hit.headers.get("Content-Length")) ?? NaN);
  if (!(size <= MAX_COPY_BYTES)) return;
  if (hit.status === 200) ctx.waitUntil(keepCopy(url, hit.clone()));
  else if (hit.status === 206) ctx.waitUntil(caches.default.match(url).then((whole) => whole && keepCopy(url, whole)));
}

function withLength(headers: Headers, size: number): Headers {
  headers.set("Content-Length", String(size));
  return headers;
}

const NOTES: Record<AudioFormat, string> = {
  mp3:
    "MP3, the canonical encoding. When R2_PUBLIC_URL is set, 302 to the public bucket; else when R2 S3 " +
    "credentials are set, 302 to a presigned URL valid for one hour; else streamed.",
  opus: "Ogg Opus, built from the master on first request and kept.",
  wav: "WAV (16-bit PCM), built from the master on first request and kept.",
};

/** GET and HEAD /v1/audio/{key}.{format}: one route per encoding, so the OpenAPI paths read as docs/rules.md "Rules" 4 writes them. */
function audioRoute(format: AudioFormat) {
  const type = AUDIO_CONTENT_TYPES[format];
  const responses: Record<number, ResponseDoc> = {
    200: { description: "The audio", contentType: type },
    206: { description: "The requested byte range", contentType: type, headers: { "Content-Range": "bytes start-end/size" } },
    304: { description: "Not modified (If-None-Match, If-Modified-Since)" },
    412: { description: "Precondition failed (If-Match, If-Unmodified-Since; RFC 9110 §13.1.1, §13.1.4)" },
    404: { description: "Unknown key or capability, or private audio by its cache key without its publisher's or the operator's API key" },
    416: { description: "Range not satisfiable", headers: { "Content-Range": "bytes */size" } },
  };
  if (format === "mp3") responses[302] = { description: "The public object or a 1-hour presigned URL", headers: { Location: "URL" } };
  return route({
    method: ["GET", "HEAD"],
    path: `/v1/audio/:key.${format}`,
    tag: "narration",
    summary: `Audio file as ${format}, with byte ranges`,
    description:
      "Public audio by its cache key; private audio (listener_private and publisher_only articles, raw renders) by the capability " +
      `in the URL the service handed out, or by its cache key with the API key of its publisher or the operator, else 404. ${NOTES[format]} Supports Range (206, Content-Range), ETag / If-None-Match (304), If-Match / If-Unmodified-Since (412) and HEAD; ` +
      "immutable for a year; repeat reads come from the isolate's copy or the edge cache.",
    auth: "none",
    rateLimit: "audio",
    params: v.object({ key: AudioName }),
    responses,
    // Each answer is counted after it is sent (docs/publishers.md "Listening numbers").
    handle: countingDownloads(async ({ env, ctx, request, url, params }) => {
      // The isolate keeps copies only of audio anyone may fetch, so a copy is answered without a lookup.
      const copy = request.method === "GET" ? cachedCopy(request.url) : undefined;
      if (copy) return answerFromBytes(request, copy.body, copy.headers);
      const { key, shared } = await requireAudioAccess(env, request, url, params.key);
      if (format === "mp3") {
        const target = await mp3RedirectUrl(env, key, shared);
        if (target) {
          if (!(await env.AUDIO.head(audioObjectPath(key, "mp3")))) throw new ApiError("not_found", "no audio with that key");
          return new Response(null, { status: 302, headers: { Location: target, "Cache-Control": "no-store" } });
        }
      }
      return serve(env, ctx, request, key, format, shared);
    }),
  });
}

export const audioRoutes = AUDIO_FORMATS.map(audioRoute);
