import * as v from "valibot";
import { webUrl } from "../core/config";
import { endStudioSession, startStudioSession, type StudioSignedIn } from "../core/studio-session";
import { csrfMatches, fromOwnOrigin } from "../core/web-session";
import { Email } from "../kernel/fields";
import { mailMagicLink, MAGIC_LINK_TTL_MS, redeemMagicToken } from "../listeners/magic-links";
import { escapeHtml, formFields, hiddenInputs, seeOther } from "../web/page";
import { bindingOf, browserBinding, otherBrowser, refused } from "../listeners/sign-in";
import { safeNext } from "../web/sign-in";
import { studioShell } from "./layout";
import { isMember } from "./members";
import { STUDIO_PATHS } from "./paths";

/**
 * The studio's sign-in (docs/publishers.md "Signing in"): the listeners' magic-link sign-in
 * (workers/listeners/sign-in.ts) for members of a publisher. The same single-use secret
 * (listeners/magic-links.ts, scope `studio`), bound the same way to the browser that asked for it (its
 * binding cookie), confirmed by a button so mail scanners cannot spend it; what differs is who may
 * ask (a member, by publisher_members) and the session it opens (core/studio-session.ts).
 */

/** `next` on this site, inside the studio; anything else lands on /studio. */
function studioNext(next: string | null | undefined, env: object): string {
  const path = safeNext(next, env);
  return path === STUDIO_PATHS.home || path.startsWith(`${STUDIO_PATHS.home}/`) ? path : STUDIO_PATHS.home;
}

/** GET /studio/sign-in: the form. */
export function studioSignInPage(env: object, url: URL): Response {
  const next = studioNext(url.searchParams.get("next"), env);
  return studioShell(env, {
    title: "Sign in to the studio",
    body: `<p>Members of a publisher sign in with their e-mail address. We will mail you a link.</p>
<form method="post" action="${STUDIO_PATHS.signIn}">${hiddenInputs({ next })}
<p><label>E-mail address<br><input type="email" name="email" required autocomplete="email"></label></p>
<p><button class="primary" type="submit">Mail me a sign-in link</button></p></form>`,
  });
}

/**
 * POST /studio/sign-in: mails a link when the address is a member; the answer is the same either way
 * and the lookup runs after it (ctx.waitUntil), so neither says who is a member.
 */
export async function requestStudioSignIn(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  if (!fromOwnOrigin(request, env)) return refused();
  const field = await formFields(request);
  const next = studioNext(field("next"), env);
  const email = v.safeParse(Email, field("email"));
  if (!email.success) {
    return studioShell(env, {
      title: "Sign in to the studio",
      body: `<p>That is not an e-mail address.</p><p><a href="${escapeHtml(`${STUDIO_PATHS.signIn}?${new URLSearchParams({ next })}`)}">Try again</a></p>`,
      status: 422,
    });
  }
  const { binding, setCookie } = browserBinding(request);
  const landing = (secret: string) => `${webUrl(env)}${STUDIO_PATHS.confirm}?${new URLSearchParams({ magic: secret, next })}`;
  const address = email.output;
  ctx.waitUntil(isMember(env, address).then((member) => (member ? mailMagicLink(env, "studio", address, null, { landing, binding }) : undefined)));
  const response = studioShell(env, {
    title: "Check your mail",
    body: `<p>If <strong>${escapeHtml(address)}</strong> is a member of a publisher, a sign-in link is on its way.
It works once, in this browser, and expires in ${MAGIC_LINK_TTL_MS / 60_000} minutes.</p>`,
  });
  response.headers.append("Set-Cookie", setCookie);
  return response;
}

/** GET /studio/sign-in/confirm: the mailed link asks for one click, in the browser that asked for it. */
export function studioConfirmPage(request: Request, env: object, url: URL): Response {
  const next = studioNext(url.searchParams.get("next"), env);
  if (!bindingOf(request)) return otherBrowser(next, 403, STUDIO_PATHS.signIn);
  return studioShell(env, {
    title: "Sign in to the studio",
    body: `<form method="post" action="${STUDIO_PATHS.confirm}">${hiddenInputs({ magic: url.searchParams.get("magic") ?? "", next })}
<p><button class="primary" type="submit">Continue signing in</button></p></form>`,
  });
}

/** POST /studio/sign-in/confirm: spends the secret (bound to this browser) and opens a studio session. */
export async function confirmStudioSignIn(request: Request, env: Env): Promise<Response> {
  if (!fromOwnOrigin(request, env)) return refused();
  const field = await formFields(request);
  const next = studioNext(field("next"), env);
  const binding = bindingOf(request);
  if (!binding) return otherBrowser(next, 403, STUDIO_PATHS.signIn);
  const redeemed = await redeemMagicToken(env, field("magic"), "studio", binding);
  if (!redeemed.ok && redeemed.reason === "unknown") return otherBrowser(next, 404, STUDIO_PATHS.signIn);
  if (!redeemed.ok) {
    const gone = redeemed.reason === "used" || redeemed.reason === "expired";
    return studioShell(env, {
      title: "Sign in to the studio",
      body: `<p>This link ${gone ? "was already used or has expired" : "is not valid"}.</p><p><a href="${escapeHtml(`${STUDIO_PATHS.signIn}?${new URLSearchParams({ next })}`)}">Ask for a new one</a></p>`,
      status: gone ? 410 : 404,
    });
  }
  return seeOther(next, { "Set-Cookie": await startStudioSession(env, redeemed.email) });
}

/** POST /studio/sign-out: ends the studio session (form token required when signed in). */
export async function studioSignOut(request: Request, env: Env, member: StudioSignedIn | null): Promise<Response> {
  if (!fromOwnOrigin(request, env)) return refused();
  const field = await formFields(request);
  if (member && !(await csrfMatches(member, field("csrf")))) return refused();
  return seeOther(STUDIO_PATHS.signIn, { "Set-Cookie": await endStudioSession(request, env) });
}
