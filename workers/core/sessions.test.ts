import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addListener } from "../../test/support/articles";
import { hmacSha256Hex, sha256Hex } from "./crypto";
import { database, publisherMembers, studioSessions, webSessions } from "../db/index";
import { endStudioSession, signedInMember, STUDIO_COOKIE, startStudioSession } from "./studio-session";
import { csrfMatches, endAllSessions, endSession, fromOwnOrigin, readCookie, SESSION_COOKIE, signedInListener, startSession } from "./web-session";

/**
 * The two kinds of browser session (core/web-session.ts for listeners, core/studio-session.ts for
 * publishers' members), stated once for both: what the cookie says, what the database keeps, who is
 * signed in, and how a session ends.
 */

const DAY_S = 86_400;

interface Kind {
  cookie: string;
  table: typeof webSessions | typeof studioSessions;
  /** Someone who may sign in: their session's Set-Cookie value and their address. */
  start(): Promise<{ setCookie: string; email: string }>;
  signedIn(request: Request): Promise<{ email: string; csrf: string } | null>;
  end(request: Request): Promise<string>;
}

const listenerKind: Kind = {
  cookie: SESSION_COOKIE,
  table: webSessions,
  async start() {
    const { listener } = await addListener();
    return { setCookie: await startSession(env, listener.id), email: listener.email };
  },
  async signedIn(request) {
    const signed = await signedInListener(request, env);
    if (signed) expect(signed.listener.id).toBe(signed.session.listenerId);
    return signed ? signed.session : null;
  },
  end: (request) => endSession(request, env),
};

let members = 0;
const studioKind: Kind = {
  cookie: STUDIO_COOKIE,
  table: studioSessions,
  async start() {
    members += 1;
    const email = `editor-${members}@example.test`;
    await database(env).insert(publisherMembers).values({ publisher: "Example Times", email, role: "editor" });
    return { setCookie: await startStudioSession(env, email), email };
  },
  signedIn: (request) => signedInMember(request, env),
  end: (request) => endStudioSession(request, env),
};

/** The secret a Set-Cookie value carries. */
function secretOf(setCookie: string): string {
  return setCookie.slice(setCookie.indexOf("=") + 1, setCookie.indexOf(";"));
}

function withCookie(cookie: string): Request {
  return new Request("https://web.test/", { headers: { Cookie: cookie } });
}

describe.each([
  ["a listener's session", listenerKind],
  ["a studio session", studioKind],
])("%s", (_, kind) => {
  it("is a __Host- cookie of a 32-byte secret for a day, HttpOnly, Secure and SameSite=Lax", async () => {
    const { setCookie } = await kind.start();
    expect(setCookie).toMatch(new RegExp(`^${kind.cookie}=[A-Za-z0-9_-]{43}; Path=/; Max-Age=${DAY_S}; HttpOnly; Secure; SameSite=Lax$`));
  });

  it("keeps only the secret's SHA-256, expiring a day from now", async () => {
    const before = Date.now();
    const { setCookie } = await kind.start();
    const after = Date.now();
    const secret = secretOf(setCookie);
    const rows = await database(env).select().from(kind.table);
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(await sha256Hex(secret));
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows[0].expiresAt.getTime()).toBeGreaterThanOrEqual(before + DAY_S * 1000);
    expect(rows[0].expiresAt.getTime()).toBeLessThanOrEqual(after + DAY_S * 1000);
  });

  it("signs in the cookie's holder, among other cookies, with a form token that is the secret's HMAC", async () => {
    const { setCookie, email } = await kind.start();
    const secret = secretOf(setCookie);
    const signed = await kind.signedIn(withCookie(`theme=dark; ${kind.cookie}=${secret} ;x=1`));
    expect(signed).toEqual(expect.objectContaining({ email, csrf: await hmacSha256Hex(secret, "csrf") }));
    if (signed) {
      expect(await csrfMatches(signed, signed.csrf)).toBe(true);
      expect(await csrfMatches(signed, secret)).toBe(false);
    }
  });

  it("signs in no one without the cookie, with another secret, or a cookie only named like it", async () => {
    const { setCookie } = await kind.start();
    const secret = secretOf(setCookie);
    expect(await kind.signedIn(new Request("https://web.test/"))).toBeNull();
    expect(await kind.signedIn(withCookie(`${kind.cookie}=${secret}x`))).toBeNull();
    expect(await kind.signedIn(withCookie(`x${kind.cookie}=${secret}`))).toBeNull();
    expect(await kind.signedIn(withCookie(`${kind.cookie}=`))).toBeNull();
  });

  it("signs in no one once the session has expired, and the next sign-in sweeps it", async () => {
    const first = await kind.start();
    await database(env)
      .update(kind.table)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(kind.table.tokenHash, await sha256Hex(secretOf(first.setCookie))));
    expect(await kind.signedIn(withCookie(`${kind.cookie}=${secretOf(first.setCookie)}`))).toBeNull();
    const second = await kind.start();
    const hashes = (await database(env).select().from(kind.table)).map((row) => row.tokenHash);
    expect(hashes).toEqual([await sha256Hex(secretOf(second.setCookie))]);
  });

  it("ends only its own session, and clears the cookie whether or not one was sent", async () => {
    const mine = await kind.start();
    const other = await kind.start();
    const cleared = `${kind.cookie}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`;
    const request = withCookie(`${kind.cookie}=${secretOf(mine.setCookie)}`);
    expect(await kind.end(request)).toBe(cleared);
    expect(await kind.signedIn(request)).toBeNull();
    expect(await kind.signedIn(withCookie(`${kind.cookie}=${secretOf(other.setCookie)}`))).not.toBeNull();
    expect(await kind.end(new Request("https://web.test/"))).toBe(cleared);
    expect(await database(env).select().from(kind.table)).toHaveLength(1);
  });
});

describe("each kind's own rules", () => {
  it("a studio session is no member's once the address leaves every publisher", async () => {
    const { setCookie, email } = await studioKind.start();
    await database(env).delete(publisherMembers).where(eq(publisherMembers.email, email));
    expect(await signedInMember(withCookie(`${STUDIO_COOKIE}=${secretOf(setCookie)}`), env)).toBeNull();
  });

  it("endAllSessions ends every session of one listener and no other's", async () => {
    const { listener } = await addListener();
    const { listener: other } = await addListener();
    const mine = [await startSession(env, listener.id), await startSession(env, listener.id)];
    const theirs = await startSession(env, other.id);
    await endAllSessions(env, listener.id);
    for (const cookie of mine) expect(await signedInListener(withCookie(`${SESSION_COOKIE}=${secretOf(cookie)}`), env)).toBeNull();
    expect(await signedInListener(withCookie(`${SESSION_COOKIE}=${secretOf(theirs)}`), env)).not.toBeNull();
  });

  it("readCookie takes a value after the first =, trimmed, and no cookie without a name", () => {
    expect(readCookie(withCookie("a=1; b = two=2 "), "b")).toBe("two=2");
    expect(readCookie(withCookie("=a; b"), "")).toBeNull();
    expect(readCookie(withCookie("a=1"), "b")).toBeNull();
  });

  it("fromOwnOrigin accepts a POST from WEB_URL's origin only, and none without Origin", () => {
    const post = (origin?: string) => new Request("https://web.test/listen", { method: "POST", headers: origin ? { Origin: origin } : {} });
    expect(fromOwnOrigin(post("https://web.test"), env)).toBe(true);
    expect(fromOwnOrigin(post("https://evil.test"), env)).toBe(false);
    expect(fromOwnOrigin(post("http://web.test"), env)).toBe(false);
    expect(fromOwnOrigin(post(), env)).toBe(false);
  });
});
