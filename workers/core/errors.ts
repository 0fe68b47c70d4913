import { requestId } from "./request-id";

/**
 * The closed set of API errors and their one renderer. Internal detail (stack traces, SQL, provider
 * messages) never reaches the wire: unknown errors become a generic 500 and are logged by name only.
 */

const STATUS = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS;

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
    this.status = STATUS[code];
  }
}

/** A 422 whose body is the `detail` list. */
export class ValidationError extends ApiError {
  constructor(readonly issues: ValidationIssue[]) {
    super("validation_failed", "request validation failed");
  }
}

/** The body every non-422 error carries. */
export interface ErrorBody {
  detail: string;
  code: ErrorCode;
  /** The request's id, also in the X-Request-Id header and the log line: what to quote to support. */
  request_id: string | null;
}

/** Every error names its request in this header too (422 included, whose body shape is fixed). */
const REQUEST_ID_HEADER = "X-Request-Id";

/** Renders a route's failure as a response (core/route.ts Route.renderErrors). */
export type ErrorRenderer = (err: unknown, request: Request, env: Env, url: URL) => Response;

/** Logs a failure that is not an ApiError: the class and message only, with the request's id. */
export function logUnexpected(err: unknown): void {
  // The class and message only: drizzle and D1 errors embed SQL and bound parameters.
  const name = err instanceof Error ? err.name : typeof err;
  console.error(`unhandled ${name}: ${err instanceof Error ? err.message.slice(0, 200) : ""} req=${requestId()}`);
}

/** Renders any thrown value as a JSON error response. */
export function errorResponse(err: unknown): Response {
  const id = requestId();
  const idHeader: Record<string, string> = id ? { [REQUEST_ID_HEADER]: id } : {};
  if (err instanceof ValidationError) {
    return Response.json({ detail: err.issues }, { status: 422, headers: idHeader });
  }
  if (err instanceof ApiError) {
    const body: ErrorBody = { detail: err.message, code: err.code, request_id: id };
    return Response.json(body, { status: err.status, headers: { ...err.headers, ...idHeader } });
  }
  logUnexpected(err);
  const body: ErrorBody = { detail: "internal error", code: "internal", request_id: id };
  return Response.json(body, { status: 500, headers: idHeader });
}
