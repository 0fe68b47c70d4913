/**
 * The scopes an agent may hold for a listener (docs/rules.md 5, docs/agents/oauth.md "OAuth for agents"), each with
 * the plain words the consent page shows. Which tool needs which scope is README's: get_audio_url
 * articles:read, subscribe_topic subscriptions:write, digest digest:run; the REST-only add_link
 * links:write.
 */
export const SCOPES = {
  "articles:read": "Search and read articles, and get their audio, as you",
  "subscriptions:write": "Subscribe you to topics",
  "digest:run": "Put together your news digest",
  "links:write": "Add web pages by their link to your private feed",
} as const;

export type Scope = keyof typeof SCOPES;

export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/** True for a scope this server grants. */
export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}

/**
 * What an authorization request asking for `requested` is offered. RFC 6749 §3.3: a request
 * without `scope` gets a pre-defined default, here the least one (reading); an unknown scope fails
 * the request with invalid_scope rather than being dropped silently, so the client learns its mistake.
 */
export function offeredScopes(requested: string[]): Scope[] | { unknown: string[] } {
  if (requested.length === 0) return ["articles:read"];
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0) return { unknown };
  return [...new Set(requested)] as Scope[];
}
