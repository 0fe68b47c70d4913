import { and, eq, gt, lt } from "drizzle-orm";
import { webUrl } from "./config";
import { hmacSha256Hex, randomToken, secretsEqual, sha256Hex } from "./crypto";
import { database, listeners, webSessions } from "../db/index";
import type { Listener } from "../kernel/listener-tokens";

/**
 * Sign-in sessions of the web front-end (the OAuth consent page; the listener pages reuse them).
 * The cookie holds a random secret and the database only its SHA-256. The cookie is `__Host-`
 * (RFC 6265bis §4.1.3.2: Secure, Path=/, no Domain, so no sibling host can set or read it),
 * HttpOnly, and SameSite=Lax so a cross-site POST never carries it. Chromium keeps Secure cookies
 * set by http://127.0.0.1 and http://localhost (checked with Chromium 156), so the same cookie
 * works on `npm start` and in production.
 */

export const SESSION_COOKIE = "__Host-session";

/** A day: long enough to read the sign-in mail and come back, short enough for a shared machine. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export interface Session {
  listenerId: number;
  email: string;
  /** The form token of this session's pages: HMAC of the cookie secret, so it needs no storage. */
  csrf: string;
}

/** The value of cookie `name` in the request, or null. */
export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The Set-Cookie value of a session cookie `name` (the listeners' and the studio's: core/studio-session.ts). */
export function hostCookie(name: string, value: string, maxAgeSeconds: number): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`;
}

function sessionCookie(value: string, maxAgeSeconds: number): string {
  return hostCookie(SESSION_COOKIE, value, maxAgeSeconds);
}

/** The form token of the session whose cookie holds `secret`. */
export function csrfToken(secret: string): Promise<string> {
  return hmacSha256Hex(secret, "csrf");
}

/** Opens a session for the listener and returns its Set-Cookie value. Expired sessions are swept here. */
export async function startSession(env: Pick<Env, "DB">, listenerId: number): Promise<string> {
  const secret = randomToken(32);
  const now = Date.now();
  const db = database(env);
  await db.batch([
    db.delete(webSessions).where(lt(webSessions.expiresAt, new Date(now))),
    db.insert(webSessions).values({ tokenHash: await sha256Hex(secret), listenerId, expiresAt: new Date(now + SESSION_TTL_MS) }),
  ]);
  return sessionCookie(secret, SESSION_TTL_MS / 1000);
}

/** A signed-in browser: its session and the listener row behind it. */
export interface SignedIn {
  session: Session;
  listener: Listener;
}

/**
 * The signed-in listener of the request with its whole row, in one query, or null (no cookie,
 * unknown, expired, or the listener is gone). The route table resolves it for `session` and
 * `browser` routes (core/route.ts AuthKind).
 */
export async function signedInListener(request: Request, env: Pick<Env, "DB">): Promise<SignedIn | null> {
  const secret = readCookie(request, SESSION_COOKIE);
  if (!secret) return null;
  const [row] = await database(env)
    .select({ listener: listeners })
    .from(webSessions)
    .innerJoin(listeners, eq(listeners.id, webSessions.listenerId))
    .where(and(eq(webSessions.tokenHash, await sha256Hex(secret)), gt(webSessions.expiresAt, new Date())));
  if (!row) return null;
  const { listener } = row;
  return { session: { listenerId: listener.id, email: listener.email, csrf: await csrfToken(secret) }, listener };
}

/** Ends the request's session, if any, and returns the Set-Cookie value that clears the cookie. */
export async function endSession(request: Request, env: Pick<Env, "DB">): Promise<string> {
  const secret = readCookie(request, SESSION_COOKIE);
  if (secret)
    await database(env)
      .delete(webSessions)
      .where(eq(webSessions.tokenHash, await sha256Hex(secret)));
  return sessionCookie("", 0);
}

/** Ends every session of the listener (token rotated, subscription deleted). */
export async function endAllSessions(env: Pick<Env, "DB">, listenerId: number): Promise<void> {
  await database(env).delete(webSessions).where(eq(webSessions.listenerId, listenerId));
}

/** True when a form's token is this session's, compared in constant time. */
export function csrfMatches(session: Pick<Session, "csrf">, given: string): Promise<boolean> {
  return secretsEqual(given, session.csrf);
}

/**
 * True when a form POST comes from a page of WEB_URL. Browsers send Origin on every POST
 * (Fetch standard, "append a request Origin header"), so a missing one is refused too; with the
 * form token and SameSite=Lax this is the page's CSRF defence (OWASP CSRF cheat sheet, defence in depth).
 */
export function fromOwnOrigin(request: Request, env: object): boolean {
  return request.headers.get("Origin") === new URL(webUrl(env)).origin;
}
