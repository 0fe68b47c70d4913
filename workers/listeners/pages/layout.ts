import { escapeHtml, hiddenInputs } from "../../web/page";
import { SIGN_IN_PATHS } from "../../web/sign-in";
import { sitePage } from "../../web/site-page";
import type { Session } from "../../core/web-session";
import { LISTEN_PATHS } from "./paths";

const NAV: [string, string][] = [
  [LISTEN_PATHS.home, "Overview"],
  [LISTEN_PATHS.queue, "Queue"],
  [LISTEN_PATHS.flo, "Flo"],
  [LISTEN_PATHS.account, "Account"],
];

function nav(current: string, session: Session | null): string {
  const links = session
    ? NAV.map(([href, label]) => `<a href="${href}"${href === current ? ' aria-current="page"' : ""}>${label}</a>`).join("")
    : `<a href="${LISTEN_PATHS.home}"${current === LISTEN_PATHS.home ? ' aria-current="page"' : ""}>Listen</a>`;
  const signOut = session
    ? `<form method="post" action="${SIGN_IN_PATHS.signOut}">${hiddenInputs({ csrf: session.csrf, next: LISTEN_PATHS.home })}<button type="submit">Sign out</button></form>`
    : "";
  return `<header class="site-header"><nav class="listen-nav" aria-label="Your listening"><a class="brand" href="/">Narration</a>${links}${signOut}</nav></header>`;
}

/**
 * A listener page at `path` in the site's shell (workers/web/site-page.ts): scripts and styles from
 * this origin only, forms posted to it only, never framed (the rotate and delete buttons are
 * clickjacking targets), never cached, never indexed. Referrer-Policy same-origin: the pages carry no
 * token in their URLs, and this keeps even their paths from other sites; not no-referrer, under which
 * browsers send "Origin: null" on form posts (Fetch, "serializing a request origin") and the CSRF
 * check needs the real origin. `body` is HTML the caller has escaped.
 */
export function listenPage(
  env: object,
  path: string,
  title: string,
  session: Session | null,
  body: string,
  init: { status?: number; headers?: HeadersInit } = {},
): Response {
  const headers = new Headers(init.headers);
  headers.set("Referrer-Policy", "same-origin");
  return sitePage(env, {
    title: `${title} · Narration`,
    body: `${nav(path, session)}<main><h1>${escapeHtml(title)}</h1>${body}</main>`,
    scripts: ["listen.js"],
    styles: ["site.css", "listen.css"],
    noindex: true,
    status: init.status,
    headers,
  });
}
