import { MAX_FORM_BYTES, readBodyBytes } from "../core/validate";
import { escapeHtml } from "../core/mail/message";

/**
 * Server-rendered pages of the web front-end that hold a session: the sign-in and consent pages.
 * No script runs on them, nothing loads from elsewhere, and none may be framed: OAuth consent
 * is a clickjacking target (RFC 6819 §4.4.1.9, OAuth 2.1 §7.5), so X-Frame-Options DENY for old
 * browsers and CSP frame-ancestors 'none' for current ones. No form-action directive: Chromium
 * applies it to the redirect after the consent form, which goes to the client's own address.
 */
const SECURITY_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  // The authorization request's state and PKCE challenge never reach another site in a Referer.
  // Not no-referrer: under it browsers send "Origin: null" on form posts (Fetch, "serializing a
  // request origin"), and the forms' CSRF check needs the real origin.
  "Referrer-Policy": "same-origin",
} as const;

const STYLE = `body{font:17px/1.55 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}
button{font:inherit;padding:.45em 1.2em;margin-right:.5em;border-radius:6px;border:1px solid #888;background:#fff}
button.primary{background:#1d1d1f;color:#fff;border-color:#1d1d1f}input[type=email]{font:inherit;padding:.35em;width:100%;max-width:22rem}
.note{color:#555;font-size:.92em}.warn{background:#fff4d6;padding:.6em .8em;border-radius:6px}`;

export { escapeHtml };

/** A complete page; `body` is HTML the caller has escaped. `headers` add to the security headers (e.g. Set-Cookie). */
export function htmlPage(title: string, body: string, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers.set(name, value);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
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
