import type * as v from "valibot";
import type { Listener } from "../kernel/listener-tokens";
import type { OAuthGrant } from "./grant";
import type { SignedIn } from "./web-session";
import type { StudioSignedIn } from "./studio-session";
import type { ApiCaller } from "./auth";
import type { ErrorRenderer } from "./errors";
import type { RateBucket } from "./rate-limit";

/** OPTIONS only for a route that answers its own CORS preflight (the OAuth provider's endpoints). */
export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/**
 * Which credential a route demands. The route table resolves it before the handler runs (401 or 404
 * when it is missing or wrong) and hands the handler what it proved: see `RouteInput.listener`.
 * `bearer`: an OAuth access token (RFC 6750) is required. `agent`: the agent surface (MCP, /v1/agent/*),
 * where a token is optional (anonymous agents pay or sign in per call) but a bad one is a 401.
 * `api_key_or_admin`: what `api_key` takes, or the admin token, which acts as the operator (a
 * publisher's own settings that the operator's administrators manage too: its lexicon).
 * `session`: a page for a signed-in listener (the web sign-in cookie, core/web-session.ts); a
 * browser without a live session is sent to sign in by the page's error renderer. `browser`: a page
 * that serves signed-out visitors too, and signed-in listeners as themselves (an unknown or expired
 * cookie is a signed-out visitor, never an error). `studio`: a page of the publishers' studio for a
 * signed-in member (core/studio-session.ts); which publisher they may see is the page's to check.
 * `api_key_or_member`: what `api_key_or_admin` takes, or else a studio member's session cookie (an
 * API read a member may make from the studio: which publisher they belong to is the handler's to check).
 */
export type AuthKind =
  | "none"
  | "api_key"
  | "admin"
  | "api_key_or_admin"
  | "listener_token"
  | "feed_token"
  | "webhook_signature"
  | "bearer"
  | "agent"
  | "session"
  | "browser"
  | "studio"
  | "api_key_or_member";

type ObjectLike = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>;

export interface ResponseDoc {
  description: string;
  /** JSON body schema; omit for non-JSON or empty bodies. */
  schema?: v.GenericSchema;
  /** Content type of a non-JSON body (audio/mpeg, application/rss+xml, ...). */
  contentType?: string;
  /** Response headers worth documenting (Location, Retry-After, ...). */
  headers?: Record<string, string>;
}

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

/** A body a route takes as it is (Route.rawBodies). */
export interface RawBody {
  /** What the body is, for the OpenAPI document. */
  description: string;
  toBody(text: string, query: unknown): unknown;
}

/** What a handler receives: validated inputs, the resolved identity and the runtime context. */
export interface RouteInput<P, Q, B, H, A extends AuthKind = AuthKind> {
  /** The listener whose account token (`listener_token`) or private feed token (`feed_token`) is in the path. */
  listener: A extends "listener_token" | "feed_token" ? Listener : undefined;
  /** Who holds the API key (`api_key`) or signed the webhook (`webhook_signature`): the operator or one publisher. */
  caller: A extends "api_key" | "api_key_or_admin" | "webhook_signature" ? ApiCaller : A extends "api_key_or_member" ? ApiCaller | undefined : undefined;
  /** The OAuth grant of the bearer token (`bearer`), or of the token if any (`agent`: null without one). */
  grant: A extends "bearer" ? OAuthGrant : A extends "agent" ? OAuthGrant | null : undefined;
  /** The signed-in listener of the web session cookie (`session`), or null for a signed-out visitor (`browser`). */
  signedIn: A extends "session" ? SignedIn : A extends "browser" ? SignedIn | null : undefined;
  /** The signed-in studio member (`studio`; `api_key_or_member` when no key or admin token was sent). */
  member: A extends "studio" ? StudioSignedIn : A extends "api_key_or_member" ? StudioSignedIn | undefined : undefined;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  headers: Out<H>;
  request: Request;
  url: URL;
  env: Env;
  ctx: ExecutionContext;
  /**
   * The id of this request (core/request-id.ts), which error bodies and log lines carry: what a handler
   * passes on to the rows it writes (a render job's request_id) and to the work it hands off.
   */
  requestId: string;
  /** The route table serving this request (discovery documents are generated from it). */
  table: readonly Route[];
}

/** One endpoint: its path, inputs, documented responses and handler. The OpenAPI document is generated from these. */
export interface Route<
  P extends ObjectLike | undefined = ObjectLike | undefined,
  Q extends ObjectLike | undefined = ObjectLike | undefined,
  B extends v.GenericSchema | undefined = v.GenericSchema | undefined,
  H extends ObjectLike | undefined = ObjectLike | undefined,
  A extends AuthKind = AuthKind,
> {
  method: Method | readonly Method[];
  /** itty-router path, e.g. /v1/listeners/:token */
  path: string;
  tag: string;
  /** The OpenAPI operationId; derived from method and path when absent (agent operations use their tool's name). */
  operationId?: string;
  summary: string;
  description?: string;
  auth: A;
  /** Per-IP budget; /v1/admin/* paths are always throttled by the admin bucket too. */
  rateLimit?: RateBucket;
  /**
   * How the route's failures are rendered: the API's JSON error body when absent, an HTML page for
   * the web front-end's pages (workers/web/page-errors.ts). Every failure of the route passes
   * through it, a refused credential or budget included.
   */
  renderErrors?: ErrorRenderer;
  /** False for what the OpenAPI document leaves out: web pages, static files, the OAuth provider's own endpoints. */
  openapi?: false;
  /**
   * Logged like a read whatever its method: only failures. For a POST that mostly reads (MCP's
   * JSON-RPC carries every tool call in one), whose handler logs the writes it makes itself.
   */
  quiet?: true;
  params?: P;
  query?: Q;
  headers?: H;
  body?: B;
  /**
   * Bodies taken as they are besides JSON, by media type (a PLS document for a lexicon import): each
   * turns the text, read within the same limit, and the validated query into the value `body` checks.
   */
  rawBodies?: Record<string, RawBody>;
  responses: Record<number, ResponseDoc>;
  handle(input: RouteInput<P, Q, B, H, A>): Response | Promise<Response>;
}

/** Declares a route with its inputs inferred for the handler. */
export function route<
  P extends ObjectLike | undefined = undefined,
  Q extends ObjectLike | undefined = undefined,
  B extends v.GenericSchema | undefined = undefined,
  H extends ObjectLike | undefined = undefined,
  A extends AuthKind = AuthKind,
>(def: Route<P, Q, B, H, A>): Route {
  return def as unknown as Route;
}

/** The methods of a route as a list. */
export function methodsOf(r: Pick<Route, "method">): readonly Method[] {
  return typeof r.method === "string" ? [r.method] : r.method;
}
