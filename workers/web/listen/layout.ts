import { escapeHtml, hiddenInputs } from "../page";
import { SIGN_IN_PATHS } from "../sign-in";
import type { Session } from "../../kernel/web-session";
import { LISTEN_PATHS } from "./paths";

/** The listener pages' script, built from workers/web/client/listen.ts into the static assets. */
export const LISTEN_SCRIPT = "/assets/listen.js";

/**
 * Headers of every listener page. They hold a session and show the private feed URL, so: never
 * cached; never framed (CSP frame-ancestors 'none', X-Frame-Options for old browsers: the delete and
 * rotate buttons are clickjacking targets); scripts and fetches from this origin only, forms posted to
 * it only. Referrer-Policy same-origin rather than no-referrer: under no-referrer browsers send
 * "Origin: null" on form posts (Fetch, "serializing a request origin"), and the CSRF check needs it.
 */
const HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
} as const;

const STYLE = `body{font:17px/1.55 system-ui,sans-serif;max-width:44rem;margin:0 auto;padding:0 1rem 3rem;color:#1d1d1f}
header nav{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;padding:1rem 0;border-bottom:1px solid #ddd}
header nav form{margin-left:auto}a{color:#0b57d0}a[aria-current=page]{font-weight:700;color:#1d1d1f}
button{font:inherit;padding:.35em 1em;border-radius:6px;border:1px solid #666;background:#fff;color:#1d1d1f;cursor:pointer}
button.primary{background:#1d1d1f;color:#fff;border-color:#1d1d1f}button.danger{background:#a4161a;color:#fff;border-color:#a4161a}
input[type=email],input[type=text]{font:inherit;padding:.35em;width:100%;max-width:30rem;box-sizing:border-box}
fieldset{border:1px solid #ccc;border-radius:6px;margin:0 0 1rem}label{display:inline-block;margin:.15rem .8rem .15rem 0}
.note{color:#555;font-size:.92em}.notice{background:#e8f3ea;padding:.6em .8em;border-radius:6px}.warn{background:#fff4d6;padding:.6em .8em;border-radius:6px}
.apps{display:flex;flex-wrap:wrap;gap:.5rem;padding:0;list-style:none}.apps a{display:inline-block;padding:.4em .9em;border:1px solid #0b57d0;border-radius:999px;text-decoration:none}
.status{display:inline-block;padding:0 .5em;border-radius:4px;font-size:.85em;background:#eee}.status-done{background:#d9f2dd}.status-failed{background:#fbdcdc}.status-rendering{background:#fff1c2}
ol.flo{padding-left:1.5rem}ol.flo li{padding:.35rem .4rem;margin:.2rem 0;border:1px solid #ddd;border-radius:6px;background:#fff}
ol.flo li[draggable=true]{cursor:grab}ol.flo li.dragging{opacity:.5}ol.flo form{display:inline}ol.flo button{padding:.1em .55em;margin-left:.3em}
.copy{display:flex;gap:.5rem;flex-wrap:wrap}`;

const NAV: [string, string][] = [
  [LISTEN_PATHS.home, "Overview"],
  [LISTEN_PATHS.queue, "Queue"],
  [LISTEN_PATHS.flo, "Flo"],
  [LISTEN_PATHS.account, "Account"],
];

function nav(current: string, session: Session | null): string {
  if (!session) return `<nav aria-label="Site"><a href="/">Narration</a><a href="${LISTEN_PATHS.home}" aria-current="page">Listen</a></nav>`;
  const links = NAV.map(([href, label]) => `<a href="${href}"${href === current ? ' aria-current="page"' : ""}>${label}</a>`).join("");
  return `<nav aria-label="Your listening"><a href="/">Narration</a>${links}
<form method="post" action="${SIGN_IN_PATHS.signOut}">${hiddenInputs({ csrf: session.csrf, next: LISTEN_PATHS.home })}<button type="submit">Sign out</button></form></nav>`;
}

/** A listener page at `path`; `body` is HTML the caller has escaped. `headers` add to the security headers (e.g. Set-Cookie). */
export function listenPage(path: string, title: string, session: Session | null, body: string, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(HEADERS)) headers.set(name, value);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Narration</title><style>${STYLE}</style>
<script type="module" src="${LISTEN_SCRIPT}"></script></head>
<body><header>${nav(path, session)}</header><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return new Response(html, { status: init.status ?? 200, headers });
}
