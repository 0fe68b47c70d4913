import { conditional } from "../core/conditional";
import { ApiError, errorResponse } from "../core/errors";
import built from "./client-assets.json";

/**
 * The web front-end's static files: the client bundles under /assets/ and the few files of
 * workers/web/static (the icon, the sign-in page), built into one module by scripts/build-web.mjs.
 *
 * The Worker serves them itself rather than through wrangler `[assets]`: with static assets, every
 * request to the Worker, a podcast app's feed or audio included, first passes the asset router,
 * and on one machine (`npm start`) that hop cost about a sixth of a hello-world Worker's rate on
 * every path (bench/README.md, "Where the time went", items 13 and 14). Seven small files do not
 * justify that. On Cloudflare it means a Worker request for each file a browser loads the first
 * time; the bundles are `immutable`, so a browser asks for each once.
 */
interface StaticFile {
  type: string;
  etag: string;
  /** Content-hashed: the same path never names other bytes. */
  immutable: boolean;
  body: string;
}

const FILES = new Map<string, StaticFile>(Object.entries(built.files));

/** The response of a static file, or undefined when `url` names none. */
export function serveStaticFile(request: Request, url: URL): Response | undefined {
  const file = FILES.get(url.pathname);
  if (!file) return undefined;
  if (request.method !== "GET" && request.method !== "HEAD") {
    return errorResponse(new ApiError("method_not_allowed", `${request.method} is not allowed on ${url.pathname}`, { Allow: "GET, HEAD" }));
  }
  const response = new Response(request.method === "HEAD" ? null : file.body, {
    headers: {
      "Content-Type": file.type,
      ETag: file.etag,
      // The others may change with a deploy: kept, but checked each time (a 304 when unchanged).
      "Cache-Control": file.immutable ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate",
      "X-Content-Type-Options": "nosniff",
    },
  });
  return conditional(request, response);
}
