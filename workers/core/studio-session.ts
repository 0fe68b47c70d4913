import { and, eq, gt, lt } from "drizzle-orm";
import { randomToken, sha256Hex } from "./crypto";
import { database, publisherMembers, studioSessions } from "../db/index";
import { csrfToken, hostCookie, readCookie, SESSION_TTL_MS } from "./web-session";

/**
 * Sessions of the publishers' studio (workers/studio/): the listeners' web sessions
 * (core/web-session.ts) with their own cookie and table, since a member is an address that may have
 * no subscription. The cookie is `__Host-` (RFC 6265bis §4.1.3.2), HttpOnly and SameSite=Lax, as the
 * listeners' is; the database keeps only the secret's SHA-256.
 */

export const STUDIO_COOKIE = "__Host-studio";

/** A signed-in studio browser: the member's address and the form token of its pages. */
export interface StudioSignedIn {
  email: string;
  csrf: string;
}

/** Opens a studio session for `email` and returns its Set-Cookie value. Expired sessions are swept here. */
export async function startStudioSession(env: Pick<Env, "DB">, email: string): Promise<string> {
  const secret = randomToken(32);
  const now = Date.now();
  const db = database(env);
  await db.batch([
    db.delete(studioSessions).where(lt(studioSessions.expiresAt, new Date(now))),
    db.insert(studioSessions).values({ tokenHash: await sha256Hex(secret), email, expiresAt: new Date(now + SESSION_TTL_MS) }),
  ]);
  return hostCookie(STUDIO_COOKIE, secret, SESSION_TTL_MS / 1000);
}

/**
 * The studio member signed in on this request, or null (no cookie, unknown or expired, or no longer
 * a member of any publisher). The route table resolves it for `studio` pages (core/route.ts AuthKind).
 */
export async function signedInMember(request: Request, env: Pick<Env, "DB">): Promise<StudioSignedIn | null> {
  const secret = readCookie(request, STUDIO_COOKIE);
  if (!secret) return null;
  const [row] = await database(env)
    .select({ email: studioSessions.email })
    .from(studioSessions)
    .innerJoin(publisherMembers, eq(publisherMembers.email, studioSessions.email))
    .where(and(eq(studioSessions.tokenHash, await sha256Hex(secret)), gt(studioSessions.expiresAt, new Date())))
    .limit(1);
  return row ? { email: row.email, csrf: await csrfToken(secret) } : null;
}

/** Ends the request's studio session, if any, and returns the Set-Cookie value that clears the cookie. */
export async function endStudioSession(request: Request, env: Pick<Env, "DB">): Promise<string> {
  const secret = readCookie(request, STUDIO_COOKIE);
  if (secret)
    await database(env)
      .delete(studioSessions)
      .where(eq(studioSessions.tokenHash, await sha256Hex(secret)));
  return hostCookie(STUDIO_COOKIE, "", 0);
}
