import * as v from "valibot";
import { webUrl } from "../core/config";
import { randomToken } from "../core/crypto";
import { csrfMatches, endSession, fromOwnOrigin, readCookie, startSession, type SignedIn } from "../core/web-session";
import { Email } from "../kernel/fields";
import { escapeHtml, formFields, hiddenInputs, htmlPage, seeOther } from "../web/page";
import { safeNext, SIGN_IN_PATHS } from "../web/sign-in";
import { proveAddress } from "./account";
import { mailListenerSignIn, MAGIC_LINK_TTL_MS, redeemMagicToken } from "./magic-links";
import { withNotice } from "./pages/notices";
import { LISTEN_PATHS } from "./pages/paths";

/**
 * Sign-in to the web front-end by e-mail magic link (the listener magic links of docs/rules.md 7,
 * with a link that lands here): ask for the address, mail the link, and on the confirm page turn
 * the single-use secret into a session. The link opens a page with a button rather than signing in
 * on GET, so mail scanners that fetch links cannot spend it.
 */

/** The answer to a form that was not sent from this site's own page (fromOwnOrigin, or a wrong form token). */
export function refused(): Response {
  return htmlPage("Sign in", "<p>This form must be sent from this site's own page. Go back and try again.</p>", { status: 403 });
}

/**
 * The cookie that binds a mailed sign-in link to the browser that asked for it: the link's secret is
 * stored under the hash of the secret and this cookie together (listeners/magic-links.ts), so the
 * confirm page signs in that browser only. Unbound, a link that leaked, or one an attacker asked for
 * their own account and handed to a victim (login CSRF), signed in whoever pressed it. `__Host-`,
 * HttpOnly and SameSite=Lax as the session cookie (core/web-session.ts), living as long as a link.
 *
 * A link opened in another browser is refused with a page that says to open it where it was asked
 * for, or to ask for a new link in this browser. Chosen over a confirm button that shows the address:
 * such a button still signs in whoever holds a leaked link, and a victim may press it for an
 * attacker's address, while the refusal costs the mail-read-on-the-phone case one more mail, asked for
 * from the phone.
 */
const BINDING_COOKIE = "__Host-sign-in";
const BINDING_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** The binding cookie of the browser, when it holds a well-formed one. */
export function bindingOf(request: Request): string | undefined {
  const value = readCookie(request, BINDING_COOKIE);
  return value && BINDING_VALUE.test(value) ? value : undefined;
}

/**
 * The binding of the browser asking for a link (its own, so its earlier links keep working, else a
 * new one) and the Set-Cookie that keeps it for a link's lifetime.
 */
export function browserBinding(request: Request): { binding: string; setCookie: string } {
  const binding = bindingOf(request) ?? randomToken(32);
  return { binding, setCookie: `${BINDING_COOKIE}=${binding}; Path=/; Max-Age=${MAGIC_LINK_TTL_MS / 1000}; HttpOnly; Secure; SameSite=Lax` };
}

/**
 * Mails a sign-in link returning to `next`, bound to `binding`, when `email` has a subscription.
 * Looked up and sent after the answer (ctx.waitUntil), so the answer's timing says nothing about the
 * address. `throttled` as for mailListenerSignIn (the subscribe form's mail).
 */
export function mailSignInLink(env: Env, ctx: ExecutionContext, email: string, next: string, binding: string, throttled = false): void {
  const landing = (secret: string) => `${webUrl(env)}${SIGN_IN_PATHS.confirm}?${new URLSearchParams({ magic: secret, next })}`;
  ctx.waitUntil(mailListenerSignIn(env, email, { landing, binding }, throttled));
}

/**
 * The answer to a link opened in a browser that did not ask for it (see BINDING_COOKIE); `request`
 * is the form that asks for a new one (the studio has its own: workers/studio/sign-in.ts).
 */
export function otherBrowser(next: string, status: number, request: string = SIGN_IN_PATHS.request): Response {
  const again = `${request}?${new URLSearchParams({ next })}`;
  return htmlPage(
    "Open the link where you asked for it",
    `<p>A sign-in link works only in the browser where it was asked for. Open it there, or
<a href="${escapeHtml(again)}">ask for a new link in this browser</a>.</p>`,
    { status },
  );
}

/** POST /sign-in: mails a link when the address has a subscription; the answer is the same either way (no account enumeration). */
export async function requestSignIn(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  if (!fromOwnOrigin(request, env)) return refused();
  const field = await formFields(request);
  const next = safeNext(field("next"), env);
  const email = v.safeParse(Email, field("email"));
  if (!email.success) return htmlPage("Sign in", `<p>That is not an e-mail address.</p><p><a href="${escapeHtml(next)}">Try again</a></p>`, { status: 422 });
  const { binding, setCookie } = browserBinding(request);
  mailSignInLink(env, ctx, email.output, next, binding);
  return htmlPage(
    "Check your mail",
    `<p>If <strong>${escapeHtml(email.output)}</strong> has a subscription, a sign-in link is on its way.
It works once, in this browser, and expires in ${MAGIC_LINK_TTL_MS / 60_000} minutes.</p>`,
    { headers: { "Set-Cookie": setCookie } },
  );
}

/** GET /sign-in/confirm: the mailed link lands here and asks for one click, in the browser that asked for it. */
export function confirmPage(request: Request, env: Env): Response {
  const url = new URL(request.url);
  const magic = url.searchParams.get("magic") ?? "";
  const next = safeNext(url.searchParams.get("next"), env);
  if (!bindingOf(request)) return otherBrowser(next, 403);
  return htmlPage(
    "Sign in",
    `<form method="post" action="${SIGN_IN_PATHS.confirm}">${hiddenInputs({ magic, next })}
<p><button class="primary" type="submit">Continue signing in</button></p></form>`,
  );
}

/** POST /sign-in/confirm: spends the secret and opens a session, then returns to `next`. */
export async function confirmSignIn(request: Request, env: Env): Promise<Response> {
  if (!fromOwnOrigin(request, env)) return refused();
  const field = await formFields(request);
  const next = safeNext(field("next"), env);
  const binding = bindingOf(request);
  if (!binding) return otherBrowser(next, 403);
  const redeemed = await redeemMagicToken(env, field("magic"), "listener", binding);
  // Unknown under this browser's binding: another browser's link, or no link at all.
  if (!redeemed.ok && redeemed.reason === "unknown") return otherBrowser(next, 404);
  if (!redeemed.ok || redeemed.listenerId === null) {
    const gone = !redeemed.ok && (redeemed.reason === "used" || redeemed.reason === "expired");
    return htmlPage(
      "Sign in",
      `<p>This link ${gone ? "was already used or has expired" : "is not valid"}.</p><p><a href="${escapeHtml(next)}">Ask for a new one</a></p>`,
      { status: gone ? 410 : 404 },
    );
  }
  // The first sign-in proves the address and replaces what was handed out before it; the listener's
  // page then says so (a notice only /listen pages show, so other landings keep their query as it is).
  const { rotated } = await proveAddress(env, redeemed.listenerId);
  const landing = rotated && next.startsWith(LISTEN_PATHS.home) ? withNotice(LISTEN_PATHS.home, "proven") : next;
  return seeOther(landing, { "Set-Cookie": await startSession(env, redeemed.listenerId) });
}

/** POST /sign-out: ends the session (form token required), then returns to `next`; `who` is the route table's. */
export async function signOut(request: Request, env: Env, who: SignedIn | null): Promise<Response> {
  if (!fromOwnOrigin(request, env)) return refused();
  const field = await formFields(request);
  if (who && !(await csrfMatches(who.session, field("csrf")))) return refused();
  return seeOther(safeNext(field("next"), env), { "Set-Cookie": await endSession(request, env) });
}
