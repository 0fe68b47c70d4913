import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import * as v from "valibot";
import { webUrl } from "../core/config";
import { randomToken, sha256Hex } from "../core/crypto";
import { ApiError } from "../core/errors";
import { named } from "../core/schema-registry";
import { database, listeners, magicTokens, type MAGIC_SCOPES } from "../db/index";
import { nowMs } from "../db/tables/columns";
import { mailer } from "../mail/mailer";
import { escapeHtml } from "../core/text";
import { htmlDocument, type MailMessage } from "../mail/message";

/**
 * Magic-link secrets (docs/rules.md "Rules" 2, 3, 7): 32 random bytes, stored only as their SHA-256,
 * single use, valid for 15 minutes (docs/rules.md "Rules" 5 leaves the expiry to us; 15 minutes is long enough to
 * open a mail and short enough that a forwarded or leaked mail soon stops working).
 */
export const MAGIC_LINK_TTL_MS = 15 * 60 * 1000;

export type MagicScope = (typeof MAGIC_SCOPES)[number];

/** The one answer of both magic-link requests, whoever asks (no account enumeration). */
export const MagicLinkAccepted = named("MagicLinkAccepted", v.object({ ok: v.literal(true), detail: v.string() }));

const MAGIC_LINK_ACCEPTED = {
  ok: true,
  detail: `If the address may sign in, a link is on its way. It works once and expires in ${MAGIC_LINK_TTL_MS / 60_000} minutes.`,
} as const;

/**
 * The answer of a magic-link request: `work` (the lookup and the mail) runs after the response, so
 * neither the answer nor its timing says whether the address may sign in.
 */
export function acceptMagicLinkRequest(ctx: ExecutionContext, work: Promise<void>): Response {
  ctx.waitUntil(work);
  return Response.json(MAGIC_LINK_ACCEPTED);
}

/** The exchange body. `magic` is optional in the schema because its absence is a 400 (docs/rules.md "Rules" 7), not a 422. */
export const MagicExchangeRequest = named(
  "MagicExchangeRequest",
  v.object({ magic: v.pipe(v.optional(v.pipe(v.string(), v.maxLength(256))), v.description("The secret from the mail.")) }),
);

/** The secret of an exchange body, or 400. */
export function requireMagic(body: { magic?: string } | undefined): string {
  if (!body?.magic) throw new ApiError("bad_request", "the magic member is required");
  return body.magic;
}

/** Why a secret was not redeemed: the endpoints map these to 404 or 410. */
export type RedeemFailure = "unknown" | "used" | "expired" | "wrong_scope";

export type Redeemed = { ok: true; email: string; listenerId: number | null } | { ok: false; reason: RedeemFailure };

/**
 * The lookup hash of a secret. A secret bound to the browser that asked for it (`binding`, that
 * browser's cookie: workers/web/sign-in.ts) is stored under the hash of both together, so the secret
 * alone finds nothing, wherever it is presented: another browser, or the API exchange.
 */
function lookupHash(secret: string, binding?: string): Promise<string> {
  return sha256Hex(binding === undefined ? secret : `${secret}.${binding}`);
}

/** Stores a new secret for `email` in `scope` (bound to `binding` when given) and returns it; the caller mails it. */
export async function issueMagicToken(env: Pick<Env, "DB">, scope: MagicScope, email: string, listenerId: number | null, binding?: string): Promise<string> {
  const secret = randomToken(32);
  await database(env)
    .insert(magicTokens)
    .values({ tokenHash: await lookupHash(secret, binding), scope, email, listenerId, expiresAt: new Date(Date.now() + MAGIC_LINK_TTL_MS) });
  return secret;
}

/**
 * Marks the secret used if it is in `scope`, unused and unexpired, and was bound to `binding` (or to
 * nothing, when none is given); one conditional write, so it is single use under concurrency.
 */
export async function redeemMagicToken(env: Pick<Env, "DB">, secret: string, scope: MagicScope, binding?: string): Promise<Redeemed> {
  const db = database(env);
  const hash = await lookupHash(secret, binding);
  const now = new Date();
  const [row] = await db
    .update(magicTokens)
    .set({ usedAt: now })
    .where(and(eq(magicTokens.tokenHash, hash), eq(magicTokens.scope, scope), isNull(magicTokens.usedAt), gt(magicTokens.expiresAt, now)))
    .returning();
  if (row) return { ok: true, email: row.email, listenerId: row.listenerId };
  const found = await db.query.magicTokens.findFirst({ where: eq(magicTokens.tokenHash, hash) });
  if (!found) return { ok: false, reason: "unknown" };
  if (found.scope !== scope) return { ok: false, reason: "wrong_scope" };
  return { ok: false, reason: found.usedAt ? "used" : "expired" };
}

/** The default landing of a sign-in link: the web sign-in page (workers/web/static/magic.html). */
function magicPageLink(env: object, scope: MagicScope, secret: string): string {
  return `${webUrl(env)}/magic?${scope === "admin" ? "scope=admin&" : ""}magic=${encodeURIComponent(secret)}`;
}

/** The sign-in mail: a link to `link`, and the code for clients that call the exchange themselves. */
function magicLinkMessage(scope: MagicScope, to: string, secret: string, link: string): MailMessage {
  // The studio's link signs in only the browser that asked (workers/studio/sign-in.ts): no API exchange takes its code.
  const exchange = {
    admin: "/v1/admin/auth/magic-link/exchange",
    listener: "/v1/auth/listener-magic-link/exchange",
    intake: "/v1/auth/listener-magic-link/exchange",
    studio: null,
  }[scope];
  const what = {
    admin: "the narration admin",
    studio: "the publishers' studio",
    listener: "your narration subscription",
    intake: "your narration subscription",
  }[scope];
  const minutes = MAGIC_LINK_TTL_MS / 60_000;
  const text = [
    `Sign in to ${what}:`,
    "",
    link,
    "",
    `The link works once and expires in ${minutes} minutes.`,
    ...(exchange ? [`Code (for POST ${exchange} as {"magic": "..."}): ${secret}`] : []),
    "",
    "If you did not ask for this, ignore this message.",
  ].join("\n");
  const html = htmlDocument(
    "Sign in",
    `<p>Sign in to ${escapeHtml(what)}:</p><p><a href="${escapeHtml(link)}">Sign in</a></p>` +
      `<p>The link works once and expires in ${minutes} minutes.</p>` +
      (exchange ? `<p>Code: <code>${escapeHtml(secret)}</code></p>` : "") +
      "<p>If you did not ask for this, ignore this message.</p>",
  );
  return { to, subject: "Your sign-in link", text, html };
}

/**
 * Where a mailed secret leads: `landing` builds the link from the secret, and `binding` ties the
 * secret to the browser that asked (the web front-end's own sign-in passes both).
 */
interface MagicLanding {
  landing: (secret: string) => string;
  binding?: string;
}

/**
 * Issues a secret and mails it, when mail is configured (docs/rules.md "Rules" 4: no provider, no mail and
 * no secret). A refused send is logged by reason only: the address and the secret stay out of logs.
 * Without `to`, the link is the sign-in page that exchanges the secret (workers/web/static/magic.html).
 */
export async function mailMagicLink(env: Env, scope: MagicScope, email: string, listenerId: number | null, to?: MagicLanding): Promise<void> {
  const mail = mailer(env);
  if (!mail) return;
  const secret = await issueMagicToken(env, scope, email, listenerId, to?.binding);
  const link = to ? to.landing(secret) : magicPageLink(env, scope, secret);
  const sent = await mail.send(magicLinkMessage(scope, email, secret, link));
  if (!sent.ok) console.warn(`${scope} magic link not delivered: ${sent.reason}`);
}

/**
 * How often a subscribe of an address may mail it a sign-in link. Anyone may subscribe any address,
 * so without a bound the subscribe endpoints would mail a stranger's inbox as often as they are called.
 */
export const SIGN_IN_MAIL_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Mails a listener sign-in link to `email` when it has a subscription, and nothing otherwise. Callers
 * run it after their answer (ctx.waitUntil), so neither the answer nor its timing tells whether the
 * address is subscribed. `to` as for mailMagicLink. `throttled` (the mail a subscribe sends): at most
 * one such mail per address per SIGN_IN_MAIL_INTERVAL_MS, claimed in one conditional write so
 * concurrent subscribes send one.
 */
export async function mailListenerSignIn(env: Env, email: string, to?: MagicLanding, throttled = false): Promise<void> {
  const db = database(env);
  const listener = throttled
    ? (
        await db
          .update(listeners)
          .set({ signInMailedAt: nowMs })
          .where(
            and(eq(listeners.email, email), or(isNull(listeners.signInMailedAt), sql`${listeners.signInMailedAt} <= ${nowMs} - ${SIGN_IN_MAIL_INTERVAL_MS}`)),
          )
          .returning({ id: listeners.id })
      )[0]
    : await db.query.listeners.findFirst({ columns: { id: true }, where: eq(listeners.email, email) });
  if (listener) await mailMagicLink(env, "listener", email, listener.id, to);
}
