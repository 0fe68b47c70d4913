import { ApiError, type ErrorCode, logUnexpected, ValidationError } from "../core/errors";
import { requestId } from "../core/request-id";
import { escapeHtml, htmlPage, seeOther } from "./page";
import { safeNext, SIGN_IN_PATHS } from "./sign-in";
import { sitePage } from "./site-page";

/**
 * The error renderers of the web front-end's routes (core/route.ts Route.renderErrors): a failure of
 * a page is a page, never the API's JSON. Everything the route table refuses (a spent budget, a
 * malformed path, a missing session) and everything a page throws passes through here.
 */

const TITLES: Partial<Record<ErrorCode, string>> = {
  rate_limited: "Please wait",
  not_found: "Not found",
  payload_too_large: "Too large",
  validation_failed: "Not valid",
  forbidden: "Not allowed",
};

/**
 * A page without a signed-in listener goes to sign in, and comes back: a GET to the page asked for,
 * a form to the page it was sent from (its Referer on this site), else the home page.
 */
function toSignIn(request: Request, env: Env, url: URL): Response {
  const back = request.method === "GET" || request.method === "HEAD" ? `${url.pathname}${url.search}` : refererPath(request);
  return seeOther(`${SIGN_IN_PATHS.request}?${new URLSearchParams({ next: safeNext(back, env) })}`);
}

/** The path and query of the form's page, or null without a Referer to read: safeNext sends that home. */
function refererPath(request: Request): string | null {
  const referer = URL.parse(request.headers.get("Referer") ?? "");
  return referer && `${referer.pathname}${referer.search}`;
}

/** Title, message, status and headers of a failure; an unexpected one is logged and shown as a 500 without detail. */
function failureOf(err: unknown): { title: string; message: string; status: number; headers: Record<string, string> } {
  const id = requestId();
  const idHeader: Record<string, string> = id ? { "X-Request-Id": id } : {};
  // A page's address that fails validation (a malformed slug) names no page: the page's own 404.
  if (err instanceof ValidationError && err.issues.every((issue) => issue.loc[0] === "path")) {
    return { title: "Not found", message: "There is no page at this address.", status: 404, headers: idHeader };
  }
  if (err instanceof ApiError) {
    return { title: TITLES[err.code] ?? "Something went wrong", message: err.message, status: err.status, headers: { ...err.headers, ...idHeader } };
  }
  logUnexpected(err);
  return { title: "Something went wrong", message: "Try again in a moment.", status: 500, headers: idHeader };
}

function idNote(): string {
  const id = requestId();
  return id ? `<p class="note">Request id: ${escapeHtml(id)}</p>` : "";
}

/** The renderer of the pages that may not be framed (all but the embed): a plain page, or the way to sign in. */
export function pageErrors(err: unknown, request: Request, env: Env, url: URL): Response {
  if (err instanceof ApiError && err.code === "unauthorized") return toSignIn(request, env, url);
  const { title, message, status, headers } = failureOf(err);
  return htmlPage(title, `<p>${escapeHtml(message)}</p>${idNote()}`, { status, headers });
}

/**
 * The renderer of the embeddable player: framable by any site as the player itself is (sitePage
 * `framable`), so a publisher's page that embeds it shows what went wrong ("Please wait") inside
 * its frame rather than the browser's broken-frame icon.
 */
export function embedErrors(err: unknown, _request: Request, env: Env): Response {
  const { title, message, status, headers } = failureOf(err);
  return sitePage(env, {
    title,
    body: `<main class="embed-main"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${idNote()}</main>`,
    bodyClass: "embed",
    framable: true,
    noindex: true,
    status,
    headers,
  });
}
