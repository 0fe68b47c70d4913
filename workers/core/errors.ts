import { webUrl } from "./config";
import { requestId } from "./request-id";

/**
 * The closed set of API errors and their one renderer. Internal detail (stack traces, SQL, provider
 * messages) never reaches the wire: unknown errors become a generic 500 and are logged by name only.
 */

/**
 * Each code's status and what a caller can do about it: the one table behind the status of every error,
 * the `docs` link every error body carries, and the page that link opens (GET {WEB_URL}/errors).
 */
export const ERRORS = {
  bad_request: [400, "The request could not be read (a malformed body or header). Fix the request; sending it again as it is will fail again."],
  unauthorized: [
    401,
    "A credential is missing or wrong: an API key, the admin token, a webhook signature or an OAuth access token. The WWW-Authenticate header, where there is one, says how to get one.",
  ],
  payment_required: [
    402,
    "The operation is paid: retry with an x402 payment (the PAYMENT-REQUIRED header says what to pay) or an OAuth token that holds its scope.",
  ],
  forbidden: [403, "The credential is valid but may not do this (a viewer releasing, a publisher acting for another)."],
  not_found: [404, "No such resource, or one that belongs to someone else: the service does not say which."],
  method_not_allowed: [405, "The path exists but not with this method: the Allow header lists the ones it takes."],
  conflict: [409, "The resource is in a state that does not allow this now (already taken, already done); read it again and decide."],
  gone: [410, "The resource existed and is gone for good (a used or expired link, a closed account): ask for a new one."],
  payload_too_large: [413, "The body is larger than this operation takes; the detail says the limit."],
  validation_failed: [
    422,
    "A field of the path, query, headers or body is not what the operation takes: `detail` lists each one with where it is (`loc`), why (`msg`) and a stable `type`. Nothing was changed.",
  ],
  rate_limited: [429, "Too many requests from this address or for this resource: wait the Retry-After seconds, then try again."],
  internal: [500, "An unexpected error of the service. Nothing is known to have changed; quote the request_id to the operator."],
  not_implemented: [501, "The operation is not available in this deployment (a provider that is not configured)."],
  unavailable: [503, "A part the operation needs is down or busy (an engine, a provider, the queue); try again later."],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERRORS;

/** One entry of the 422 `detail` list (docs/api-conventions.md "API conventions", validation). */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** An expected failure with a closed code; `headers` carry e.g. Retry-After or Allow. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERRORS[code][0];
  }
}

/** A 422 whose body is the `detail` list. */
export class ValidationError extends ApiError {
  constructor(readonly issues: ValidationIssue[]) {
    super("validation_failed", "request validation failed");
  }
}

/** What every error body carries besides `detail` (a sentence, or the 422's list of issues). */
interface ErrorEnvelope {
  code: ErrorCode;
  /** The request's id, also in the X-Request-Id header and the log line: what to quote to support. */
  request_id: string | null;
  /** The page that says what the code means and what to do about it. */
  docs: string;
}

/** The body every non-422 error carries. */
export interface ErrorBody extends ErrorEnvelope {
  detail: string;
}

/** Where a code is explained: its entry on the errors page (GET {WEB_URL}/errors). */
export function errorDocsUrl(env: object, code: ErrorCode): string {
  return `${webUrl(env)}/errors#${code}`;
}

/** Every error names its request in this header too (422 included, whose body shape is fixed). */
const REQUEST_ID_HEADER = "X-Request-Id";

/** Renders a route's failure as a response (core/route.ts Route.renderErrors). */
export type ErrorRenderer = (err: unknown, request: Request, env: Env, url: URL) => Response;

/**
 * An error as a log line may carry it: its class, its message without the bound SQL parameters that
 * drizzle appends to a failed query's ("params: ..."; they hold addresses, token hashes, sealed tokens),
 * and its cause's message, where D1 says what went wrong (names of tables and constraints, no values).
 */
export function loggableError(err: unknown): string {
  if (!(err instanceof Error)) return typeof err;
  const message = err.message.replace(/\nparams: [\s\S]*$/, "").slice(0, 200);
  const cause = err.cause instanceof Error ? ` (${err.cause.message.replace(/\nparams: [\s\S]*$/, "").slice(0, 200)})` : "";
  return `${err.name}: ${message}${cause}`;
}

/** Logs a failure that is not an ApiError (loggableError), with the request's id. */
export function logUnexpected(err: unknown): void {
  console.error(`unhandled ${loggableError(err)} req=${requestId()}`);
}

/** Renders any thrown value as a JSON error response. */
export function errorResponse(err: unknown, env: object): Response {
  const id = requestId();
  const idHeader: Record<string, string> = id ? { [REQUEST_ID_HEADER]: id } : {};
  const envelope = (code: ErrorCode): ErrorEnvelope => ({ code, request_id: id, docs: errorDocsUrl(env, code) });
  if (err instanceof ValidationError) {
    return Response.json({ detail: err.issues, ...envelope("validation_failed") }, { status: 422, headers: idHeader });
  }
  if (err instanceof ApiError) {
    const body: ErrorBody = { detail: err.message, ...envelope(err.code) };
    return Response.json(body, { status: err.status, headers: { ...err.headers, ...idHeader } });
  }
  logUnexpected(err);
  const body: ErrorBody = { detail: "internal error", ...envelope("internal") };
  return Response.json(body, { status: 500, headers: idHeader });
}
