import { ERRORS, type ErrorCode } from "../core/errors";
import { escapeHtml } from "../core/text";
import { siteFooter, siteHeader } from "./site-chrome";
import { sitePage } from "./site-page";

/**
 * GET {WEB_URL}/errors: what each error code means and what to do about it, one entry per code with
 * the code as its anchor, so the `docs` link of every error body (core/errors.ts) lands on its entry.
 */
export function errorsPage(env: object): Response {
  const entries = (Object.entries(ERRORS) as [ErrorCode, (typeof ERRORS)[ErrorCode]][])
    .map(([code, [status, help]]) => `<dt id="${code}"><code>${code}</code> (HTTP ${status})</dt><dd>${escapeHtml(help)}</dd>`)
    .join("\n");
  return sitePage(env, {
    title: "Error codes",
    body: `${siteHeader()}<main><h1>Error codes</h1>
<p>Every error the API answers is JSON with <code>detail</code> (what went wrong), <code>code</code> (one of the codes below),
<code>request_id</code> (quote it to support; it is also in the <code>X-Request-Id</code> header) and <code>docs</code> (a link here).</p>
<dl class="error-codes">${entries}</dl></main>${siteFooter(env)}`,
    headers: { "Cache-Control": "public, max-age=3600" },
  });
}
