import { webUrl } from "../core/config";
import { hiddenInputs, htmlPage } from "./page";

/**
 * The site's sign-in, as the shell knows it: its paths, where it may return to, and its form. Every
 * page that needs a signed-in visitor (the listener's pages, the OAuth consent page) sends them here;
 * the flow behind the form (mailing the link, confirming it) is the listener's (listeners/sign-in.ts).
 */

export const SIGN_IN_PATHS = { request: "/sign-in", confirm: "/sign-in/confirm", signOut: "/sign-out" } as const;

/**
 * Backslashes and control characters, raw or percent-encoded. No path of ours holds one, and a
 * browser resolving a Location (WHATWG URL Standard, "basic URL parser") drops tabs and newlines and
 * reads a backslash as a slash, which turns "/<tab>/host" or "/<backslash>host" into "//host": another site.
 */
const UNSAFE_IN_NEXT = /[\\\u0000-\u001f\u007f-\u009f]|%(?:[01][0-9a-f]|7f|5c)/i;

/**
 * `next` as a path on this site, or "/". It is parsed as a browser will parse the Location it ends up
 * in, against the site's own address, and kept only when the origin stays the same: an open redirect
 * here would lend another site the sign-in's trust. Parsing removes dot segments, so "/.//evil.example"
 * comes out as "//evil.example", which a browser reads as another host: the path is parsed again until
 * it no longer changes, and then must start with exactly one slash.
 */
export function safeNext(next: string | null | undefined, env: object): string {
  const site = new URL(webUrl(env));
  let path = next ?? "";
  for (;;) {
    if (!path.startsWith("/") || path.startsWith("//") || UNSAFE_IN_NEXT.test(path)) return "/";
    const url = URL.parse(path, site);
    if (url?.origin !== site.origin) return "/";
    const parsed = `${url.pathname}${url.search}${url.hash}`;
    if (parsed === path) return path;
    path = parsed;
  }
}

/** The sign-in form, returning to `next` (a path on this site) once signed in. */
export function signInPage(next: string, status = 200): Response {
  return htmlPage(
    "Sign in",
    `<p>Sign in with the e-mail address of your narration subscription. We will mail you a link.</p>
<form method="post" action="${SIGN_IN_PATHS.request}">${hiddenInputs({ next })}
<p><label>E-mail address<br><input type="email" name="email" required autocomplete="email"></label></p>
<p><button class="primary" type="submit">Mail me a sign-in link</button></p></form>`,
    { status },
  );
}
