import { cors, Router, type IRequest } from "itty-router";
import type * as v from "valibot";
import { resolveCredential, type ResolvedHere } from "./auth";
import type { BearerResolver } from "./grant";
import { ApiError, errorResponse, ValidationError } from "./errors";
import { enforceRateLimit } from "./rate-limit";
import { redactCredentials } from "./redact";
import { requestId } from "./request-id";
import { methodsOf, type AuthKind, type Route } from "./route";
import { checkBody, parseHeaders, parseJsonBody, parseParams, parseQuery, readBodyText } from "./validate";

/** What every handler gets besides the request: the address is parsed once, by the Worker's fetch (workers/api.ts). */
type Args = [Env, ExecutionContext, URL];

/** Response headers a browser client may read beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = [
  "Location",
  "Retry-After",
  "WWW-Authenticate",
  "ETag",
  "Last-Modified",
  "Content-Range",
  "Accept-Ranges",
  "Content-Length",
  "X-Request-Id",
];
const EXPOSED = EXPOSED_HEADERS.join(", ");

/** Browser clients may call every public endpoint; credentials travel in headers, never cookies. */
const { preflight } = cors({
  origin: "*",
  allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
  exposeHeaders: EXPOSED_HEADERS,
  maxAge: 86400,
});

/**
 * Marks a response for browsers, in place. itty-router's corsify copies every response into a new
 * one to add its header (a second Response per request on every hot path: bench/README.md, "Where
 * the time went"), and sends Access-Control-Expose-Headers only on preflights, where browsers do not
 * read it (Fetch standard, "CORS protocol"). A response from fetch or the Cache API has immutable
 * headers and is copied.
 */
function allowBrowsers(response: Response): Response {
  if (response.status === 101 || response.headers.has("Access-Control-Allow-Origin")) return response;
  let marked = response;
  try {
    marked.headers.set("Access-Control-Allow-Origin", "*");
  } catch {
    marked = new Response(response.body, response);
    marked.headers.set("Access-Control-Allow-Origin", "*");
  }
  marked.headers.set("Access-Control-Expose-Headers", EXPOSED);
  return marked;
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    try {
      out[key] = decodeURIComponent(value);
    } catch {
      throw new ValidationError([{ loc: ["path", key], msg: "malformed percent-encoding", type: "path_invalid" }]);
    }
  }
  return out;
}

/** Credentials that travel in headers (a cookie included): checked before the path is even validated. */
const HEADER_CREDENTIALS: ReadonlySet<AuthKind> = new Set(["api_key", "admin", "api_key_or_admin", "api_key_or_member", "session", "browser", "studio"]);

async function serve(
  table: readonly Route[],
  bearer: BearerResolver,
  r: Route,
  request: IRequest,
  env: Env,
  ctx: ExecutionContext,
  url: URL,
): Promise<Response> {
  // docs/rules.md "Rules" 5 rule 2: admin paths are throttled per IP by prefix, whatever the route declares.
  const bucket = url.pathname.startsWith("/v1/admin/") ? "admin" : r.rateLimit;
  if (bucket) await enforceRateLimit(env, request, bucket);
  // Keys, tokens, signatures and sessions are checked before anything else about the request is
  // looked at; a listener token is a path parameter, so it is validated (length) first.
  const oauth = r.auth === "bearer" || r.auth === "agent";
  const headerCredential = HEADER_CREDENTIALS.has(r.auth);
  const early = headerCredential ? await resolveCredential(r.auth as ResolvedHere, env, request, url, undefined) : {};
  // A route that takes no credential may keep its checked path, query and (absent) headers for the
  // next request that repeats them (validate.ts); one with a token or key in them never does. An
  // OAuth token travels in Authorization and a session in Cookie, which no route's schema reads.
  const remember = r.auth === "none" || oauth || r.auth === "session" || r.auth === "browser" || r.auth === "studio";
  const params = r.params ? parseParams(r.params, decodeParams(request.params), remember) : undefined;
  const { listener, caller, signedBody, signedIn, member } =
    headerCredential || oauth ? early : await resolveCredential(r.auth as ResolvedHere, env, request, url, params);
  const query = r.query ? parseQuery(r.query, url, remember) : undefined;
  const headers = r.headers ? parseHeaders(r.headers, request.headers, remember) : undefined;
  const body = r.body ? await bodyOf(r, r.body, request, query, signedBody) : undefined;
  // The agent surface's OAuth token is checked once its inputs are (a 422 before a 401, as the agent
  // operations have always answered): nothing of the input is acted on before it.
  const grant = oauth ? await bearer(r.auth as "bearer" | "agent", env, request) : undefined;

  // Outside withRequestId (a test calling the router itself) the id is made here.
  const id = requestId() ?? crypto.randomUUID();
  const response = await r.handle({ listener, caller, grant, signedIn, member, params, query, headers, body, request, url, env, ctx, requestId: id, table });
  return request.method === "HEAD" ? new Response(null, response) : response;
}

/** The media type of a request's Content-Type, without parameters, lower-cased. */
function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";", 1)[0].trim().toLowerCase();
}

/** The validated body: JSON, or a raw body of a media type the route takes as it is (Route.rawBodies). */
async function bodyOf(r: Route, schema: v.GenericSchema, request: Request, query: unknown, signedBody: string | undefined): Promise<unknown> {
  const text = signedBody ?? (await readBodyText(request));
  const raw = r.rawBodies?.[mediaType(request)];
  return raw ? checkBody(schema, raw.toBody(text, query)) : parseJsonBody(schema, text);
}

/**
 * Serves `r`; a failure is rendered by the route's own renderer when it declares one (an HTML page
 * for the web front-end), else by the router's catch, the API's JSON error body.
 */
async function run(table: readonly Route[], bearer: BearerResolver, r: Route, request: IRequest, env: Env, ctx: ExecutionContext, url: URL): Promise<Response> {
  if (!r.renderErrors) return serve(table, bearer, r, request, env, ctx, url);
  try {
    return await serve(table, bearer, r, request, env, ctx, url);
  } catch (err) {
    const response = r.renderErrors(err, request, env, url);
    return request.method === "HEAD" ? new Response(null, response) : response;
  }
}

/** Reads that succeed are the bulk of the traffic (feed polls, ranged audio) and tell nothing new. */
const QUIET_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * One log line per write and per failed request, with the route pattern it matched
 * (/v1/listeners/:token), never its path: a token in a path is a credential. An unmatched path is
 * logged with credential-like parts redacted. On deploy these lines are the request log; Workers
 * Logs' invocation logs, which record full URLs, are off (wrangler.toml [observability.logs]), and
 * successful reads are counted by status in the Worker's metrics instead: a line for each would cost
 * every hot path its largest share of time (bench/README.md, "Where the time went").
 * `quietPatterns` are the patterns of routes that log their own writes (Route.quiet).
 */
function requestLog(quietPatterns: ReadonlySet<string>) {
  return (response: Response, request: IRequest, _env: Env, _ctx: ExecutionContext, url: URL): Response => {
    if (response.status < 400 && (QUIET_METHODS.has(request.method) || quietPatterns.has(request.route))) return response;
    const route = request.route && request.route !== "*" ? request.route : redactCredentials(url.pathname);
    console.log(`${request.method} ${route} ${response.status} req=${requestId()}`);
    return response;
  };
}

/**
 * Builds the itty-router for `routes` (registration order is match order); `bearer` resolves OAuth
 * access tokens, the OAuth server's resolver given by workers/router.ts.
 */
export function buildRouter(routes: Route[], bearer: BearerResolver) {
  // The few routes that answer their own preflight (the OAuth provider's endpoints, whose CORS is
  // the provider's); every other OPTIONS is answered here, before any route is matched.
  const ownPreflight = new Set(routes.filter((r) => methodsOf(r).includes("OPTIONS")).map((r) => r.path));
  const router = Router<IRequest, Args>({
    before: [
      (request: IRequest, _env: Env, _ctx: ExecutionContext, { pathname }: URL) =>
        request.method === "OPTIONS" && !ownPreflight.has(pathname) ? preflight(request) : undefined,
    ],
    catch: (err, _request, env: Env) => errorResponse(err, env),
    finally: [allowBrowsers, requestLog(new Set(routes.filter((r) => r.quiet).map((r) => r.path)))],
  });
  for (const r of routes) {
    for (const method of methodsOf(r)) {
      router[method.toLowerCase()](r.path, (req: IRequest, env: Env, ctx: ExecutionContext, url: URL) => run(routes, bearer, r, req, env, ctx, url));
    }
  }
  router.all("*", (request: IRequest, _env: Env, _ctx: ExecutionContext, { pathname }: URL) => {
    const allowed = new Set(router.routes.filter(([m, re]) => m !== "ALL" && re.test(pathname)).map(([m]) => m));
    if (allowed.size > 0) {
      throw new ApiError("method_not_allowed", `${request.method} is not allowed on ${pathname}`, {
        Allow: [...allowed].join(", "),
      });
    }
    throw new ApiError("not_found", `no resource at ${pathname}`);
  });
  return router;
}
