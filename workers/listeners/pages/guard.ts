import { csrfMatches, fromOwnOrigin, type Session, type SignedIn } from "../../core/web-session";
import { escapeHtml, formValues } from "../../web/page";
import { listenPage } from "./layout";

export type { SignedIn };

/** A refused write: nothing was changed. */
export function refusedWrite(env: object, path: string, message: string, status: number, session: Session | null = null): Response {
  return listenPage(env, path, "Not changed", session, `<p>${escapeHtml(message)}</p><p><a href="${escapeHtml(path)}">Back</a></p>`, { status });
}

/**
 * The guard of every write of the listener pages, forms and script alike, for the signed-in browser
 * `who` the route table resolved (a `session` route): the POST must come from this site's own pages
 * (Origin, as the sign-in does) and carry the session's form token (OWASP CSRF cheat sheet:
 * synchronizer token plus origin verification, with the SameSite=Lax cookie as a third layer).
 * Returns the listener and the form's fields, or the refusal.
 */
export async function guardWrite(
  request: Request,
  env: Env,
  back: string,
  who: SignedIn,
): Promise<(SignedIn & { field: (name: string) => string; fields: (name: string) => string[] }) | Response> {
  if (!fromOwnOrigin(request, env)) return refusedWrite(env, back, "This form must be sent from this site's own page.", 403, who.session);
  const fields = await formValues(request);
  const field = (name: string) => fields(name)[0] ?? "";
  if (!(await csrfMatches(who.session, field("csrf"))))
    return refusedWrite(env, back, "This form is out of date. Reload the page and try again.", 403, who.session);
  return { ...who, field, fields };
}
