import { conditional } from "../core/conditional";
import { ApiError } from "../core/errors";
import { route, type Route } from "../core/route";
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

/** The response of the static file at `url` (GET or HEAD, which the route table alone lets through); 404 when there is none. */
export function serveStaticFile(request: Request, url: URL): Response {
  const file = FILES.get(url.pathname);
  if (!file) throw new ApiError("not_found", `no resource at ${url.pathname}`);
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

/**
 * The route of static files at `path` (a fixed path, or /assets/:file for the built bundles): no
 * credential and no budget, as before the table served them (immutable files, fetched once per
 * browser); not in the OpenAPI document. Errors are the table's JSON ones.
 */
export function staticFileRoute(path: string, summary: string): Route {
  return route({
    method: ["GET", "HEAD"],
    path,
    tag: "web",
    summary,
    auth: "none",
    openapi: false,
    responses: { 200: { description: summary }, 304: { description: "Not modified (If-None-Match)" } },
    handle: ({ request, url }) => serveStaticFile(request, url),
  });
}

/** The served path of every static file, for the test that each has a route. */
export const STATIC_PATHS: readonly string[] = [...FILES.keys()];
