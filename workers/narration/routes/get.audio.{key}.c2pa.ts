import * as v from "valibot";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { requireAudioAccess } from "../audio-access";
import { AudioName } from "../audio-name";
import { C2PA_CONTENT_TYPE, c2paSidecarPath } from "../../kernel/audio-objects";

/**
 * GET /v1/audio/{key}.c2pa: the C2PA manifest of the Opus (docs/narration.md "Marked as synthetic").
 * Ogg is not a format C2PA embeds in, so the manifest is a file of its own, bound to the Opus by the
 * SHA-256 of all its bytes; the Opus's responses name it in a Link header (rel="c2pa-manifest").
 * The same access as the audio: a private Opus's manifest answers to the same capability or key.
 */
export const getAudioManifest = route({
  method: ["GET", "HEAD"],
  path: "/v1/audio/:key.c2pa",
  tag: "narration",
  summary: "C2PA manifest of the Opus audio",
  description:
    "The signed C2PA manifest store (application/c2pa) of /v1/audio/{key}.opus: Ogg is not a format C2PA embeds in, so the manifest " +
    "is an external one (C2PA 2.2 §11.3), bound to the whole Opus file by a data hash with no exclusions. Verify it with c2patool: " +
    '`c2patool narration.opus --external-manifest narration.c2pa`. The Opus\'s responses name it in `Link: <...>; rel="c2pa-manifest"`. ' +
    "Same access as the audio; 404 when the deployment signs nothing (no C2PA credentials) or the audio predates the manifests.",
  auth: "none",
  rateLimit: "audio",
  params: v.object({ key: AudioName }),
  responses: {
    200: { description: "The manifest store", contentType: C2PA_CONTENT_TYPE },
    404: { description: "Unknown key or capability, private audio without its credential, or audio without a manifest" },
  },
  async handle({ env, request, url, params }) {
    const { key, shared } = await requireAudioAccess(env, request, url, params.key);
    const obj = await env.AUDIO.get(c2paSidecarPath(key));
    if (!obj) throw new ApiError("not_found", "no C2PA manifest for that audio");
    const headers = {
      "Content-Type": C2PA_CONTENT_TYPE,
      "Content-Length": String(obj.size),
      "Cache-Control": `${shared ? "public" : "private"}, max-age=31536000, immutable`,
      ETag: obj.httpEtag,
    };
    if (request.method === "HEAD") {
      await obj.body.cancel();
      return new Response(null, { headers });
    }
    return new Response(obj.body, { headers });
  },
});
