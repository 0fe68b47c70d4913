import { env } from "cloudflare:test";
import { startStudioSession } from "../../workers/core/studio-session";
import { csrfToken } from "../../workers/core/web-session";
import { database, publisherMembers } from "../../workers/db/index";
import { testVars } from "../vars";
import { callWith } from "./narration";

/** The Cookie header of a studio session of `email`, made a member of `publisher` with `role` (no sign-in mail). */
export async function studioMemberCookie(publisher: string, email: string, role: "editor" | "viewer"): Promise<string> {
  await database(env).insert(publisherMembers).values({ publisher, email, role }).onConflictDoNothing();
  const setCookie = await startStudioSession(env, email);
  return setCookie.split(";")[0];
}

/** A form's fields; a name given twice is a checkbox group. */
type Form = Record<string, string> | [string, string][];

/**
 * A member's browser on the studio, signed in without the sign-in mail: GETs with its session cookie,
 * and POSTs forms as the studio's own pages send them (its Origin and the session's form token).
 * `extraEnv` overrides the deployment (a WEB_URL on loopback lets an endpoint be http there).
 */
export async function studioBrowser(publisher: string, email: string, role: "editor" | "viewer", extraEnv: Record<string, string> = {}) {
  const cookie = await studioMemberCookie(publisher, email, role);
  const csrf = await csrfToken(cookie.slice(cookie.indexOf("=") + 1));
  const web = new URL(extraEnv.WEB_URL ?? testVars.WEB_URL);
  return {
    cookie,
    get: (path: string) => callWith(null, new URL(path, web).href, { headers: { Cookie: cookie }, redirect: "manual" }, extraEnv),
    post(path: string, form: Form, origin = web.origin) {
      const body = new URLSearchParams(form);
      body.set("csrf", csrf);
      const headers = { Cookie: cookie, Origin: origin, "Content-Type": "application/x-www-form-urlencoded" };
      return callWith(null, new URL(path, web).href, { method: "POST", headers, body: body.toString(), redirect: "manual" }, extraEnv);
    },
  };
}
