import type { GrantSummary } from "@cloudflare/workers-oauth-provider";
import { isScope, SCOPE_NAMES, type Scope } from "./scopes";
import { oauthApi } from "./server";

/**
 * The grants a listener gave agents. The provider keys grants by user id, which is the listener's
 * id as a string (ids are never reused: the listeners table is AUTOINCREMENT).
 */

/** What the consent page stores beside a grant, for the listener's list of agents. */
export interface GrantMetadata {
  clientName: string;
  redirectHost: string;
}

/** The provider's user id for a listener. */
export function grantUserId(listenerId: number): string {
  return String(listenerId);
}

/** Every grant of the listener, oldest first. */
export async function listGrants(env: Env, listenerId: number): Promise<GrantSummary[]> {
  const api = oauthApi(env);
  const out: GrantSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.listUserGrants(grantUserId(listenerId), { limit: 1000, cursor });
    out.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return out.sort((a, b) => a.createdAt - b.createdAt);
}

/** The scopes the listener has allowed OAuth client `clientId` in its live grants, in SCOPE_NAMES order. */
export async function scopesAllowed(env: Env, listenerId: number, clientId: string): Promise<Scope[]> {
  const held = new Set((await listGrants(env, listenerId)).filter((g) => g.clientId === clientId).flatMap((g) => g.scope.filter(isScope)));
  return SCOPE_NAMES.filter((s) => held.has(s));
}

/** Revokes one grant and every token issued under it; false when the listener has no such grant. */
export async function revokeGrant(env: Env, listenerId: number, grantId: string): Promise<boolean> {
  const grants = await listGrants(env, listenerId);
  if (!grants.some((g) => g.id === grantId)) return false;
  await oauthApi(env).revokeGrant(grantId, grantUserId(listenerId));
  return true;
}

/**
 * Revokes every grant of the listener: called when the listener rotates their token or deletes
 * their subscription, since either says "nothing should act for me with the old credentials".
 */
export async function revokeAllGrants(env: Env, listenerId: number): Promise<number> {
  const grants = await listGrants(env, listenerId);
  const api = oauthApi(env);
  await Promise.all(grants.map((g) => api.revokeGrant(g.id, grantUserId(listenerId))));
  return grants.length;
}
