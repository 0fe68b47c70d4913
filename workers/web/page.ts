import { MAX_FORM_BYTES, readBodyBytes } from "../core/validate";
import { escapeHtml } from "../core/text";
import { siteHeader } from "./site-chrome";
import { assetPath } from "./site-page";

/**
 * Server-rendered pages of the web front-end that hold a session: the sign-in and consent pages.
 * No script runs on them, styles come from this origin only (the site's built sheets, so they wear
 * the site's header and look), and none may be framed: OAuth consent is a clickjacking target
 * (RFC 6819 §4.4.1.9, OAuth 2.1 §7.5), so X-Frame-Options DENY for old browsers and CSP
 * frame-ancestors 'none' for current ones. No form-action directive: Chromium applies it to the
 * redirect after the consent form, which goes to the client's own address.
 */
const SECURITY_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  // The authorization request's state and PKCE challenge never reach another site in a Referer.
  // Not no-referrer: under it browsers send "Origin: null" on form posts (Fetch, "serializing a
  // request origin"), and the forms' CSRF check needs the real origin.
  "Referrer-Policy": "same-origin",
} as const;

export { escapeHtml };

/**
 * A complete page; `body` is HTML the caller has escaped. `headers` add to the security headers (e.g. Set-Cookie).
 * The site's header and a main landmark hold everything, as on every other page (WCAG 2.4.1: a way past the header).
 */
export function htmlPage(title: string, body: string, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers.set(name, value);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${assetPath("site.css")}"><link rel="stylesheet" href="${assetPath("listen.css")}"></head>
<body>${siteHeader()}<main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return new Response(html, { status: init.status ?? 200, headers });
}

/** A 303 to `location` (RFC 9110 §15.4.4: the browser follows with GET), with extra headers. */
export function seeOther(location: string, headers: HeadersInit = {}): Response {
  const out = new Headers(headers);
  out.set("Location", location);
  out.set("Cache-Control", "no-store");
  return new Response(null, { status: 303, headers: out });
}

/** The hidden inputs of a form, escaped. */
export function hiddenInputs(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
}

/**
 * Every string value of field `name` in a form POST; a body that is not a form has none. The body is
 * read within MAX_FORM_BYTES (413 past it) before it is parsed.
 */
export async function formValues(request: Request): Promise<(name: string) => string[]> {
  const body = await readBodyBytes(request, MAX_FORM_BYTES);
  const type = request.headers.get("content-type") ?? "";
  const form = await new Response(body, { headers: { "content-type": type } }).formData().catch(() => null);
  return (name) => (form?.getAll(name) ?? []).filter((v): v is string => typeof v === "string");
}

/** The first value of each field of a form POST, "" when absent. */
export async function formFields(request: Request): Promise<(name: string) => string> {
  const values = await formValues(request);
  return (name) => values(name)[0] ?? "";
}
