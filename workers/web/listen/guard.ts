import { eq } from "drizzle-orm";
import { database, listeners } from "../../db";
import type { Listener } from "../../kernel/listener-tokens";
import { csrfMatches, currentSession, fromOwnOrigin, type Session } from "../../kernel/web-session";
import { escapeHtml, formValues, seeOther } from "../page";
import { SIGN_IN_PATHS } from "../sign-in";
import { listenPage } from "./layout";

/** A signed-in request: its session and the listener row behind it. */
export interface SignedIn {
  session: Session;
  listener: Listener;
}

/** The sign-in page, returning to `path` once signed in. */
function toSignIn(path: string): Response {
  return seeOther(`${SIGN_IN_PATHS.request}?${new URLSearchParams({ next: path })}`);
}

/** The signed-in listener of the request, or null (signed out, or the session outlived its listener). */
export async function signedIn(request: Request, env: Env): Promise<SignedIn | null> {
  const session = await currentSession(request, env);
  if (!session) return null;
  const listener = await database(env).query.listeners.findFirst({ where: eq(listeners.id, session.listenerId) });
  return listener ? { session, listener } : null;
}

/** The signed-in listener of a page GET, or a redirect to the sign-in page that comes back here. */
export async function requireSignedIn(request: Request, env: Env): Promise<SignedIn | Response> {
  const url = new URL(request.url);
  return (await signedIn(request, env)) ?? toSignIn(url.pathname);
}

/** A refused write: nothing was changed. */
export function refusedWrite(env: object, path: string, message: string, status: number, session: Session | null = null): Response {
  return listenPage(env, path, "Not changed", session, `<p>${escapeHtml(message)}</p><p><a href="${escapeHtml(path)}">Back</a></p>`, { status });
}

/**
 * The guard of every write of the listener pages, forms and script alike: the POST must come from
 * this site's own pages (Origin, as the sign-in does), from a signed-in browser, and carry the
 * session's form token (OWASP CSRF cheat sheet: synchronizer token plus origin verification, with
 * the SameSite=Lax cookie as a third layer). Returns the listener and the form's fields, or the refusal.
 */
export async function guardWrite(request: Request, env: Env, back: string): Promise<(SignedIn & { field: (name: string) => string; fields: (name: string) => string[] }) | Response> {
  if (!fromOwnOrigin(request, env)) return refusedWrite(env, back, "This form must be sent from this site's own page.", 403);
  const fields = await formValues(request);
  const field = (name: string) => fields(name)[0] ?? "";
  const who = await signedIn(request, env);
  if (!who) return toSignIn(back);
  if (!(await csrfMatches(who.session, field("csrf")))) return refusedWrite(env, back, "This form is out of date. Reload the page and try again.", 403, who.session);
  return { ...who, field, fields };
}
