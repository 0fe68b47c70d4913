import * as v from "valibot";
import { canonicalVertical } from "./verticals";

/** Field schemas shared by the listener endpoints (and their OpenAPI document). */

export const Email = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254),
  v.email("must be an e-mail address"),
  // RFC 6761 §6.4: nothing under .invalid receives mail. Wallet-held subscriptions use such addresses
  // as placeholders (workers/agents/wallet-listener.ts), so a person can never claim one by e-mail.
  v.check((email) => !/\.invalid$/.test(email), "must be an address that can receive mail (not under .invalid)"),
  v.description("E-mail address; compared case-insensitively."),
);

/** One vertical slug or alias, stored as its canonical slug; anything outside the catalog fails. */
export const VerticalSlug = v.pipe(
  v.string(),
  v.maxLength(80),
  v.transform((s) => canonicalVertical(s)),
  v.check((s): s is string => s !== null, "is not a vertical of GET /v1/listeners/verticals"),
  v.transform((s) => s as string),
  v.description("A slug of the listener vertical catalog or one of its aliases (parenting is young_moms)."),
);

export const VerticalList = v.pipe(
  v.array(VerticalSlug),
  v.maxLength(20),
  v.transform((list) => [...new Set(list)]),
  v.description("Vertical slugs the listener follows; aliases are canonicalised and duplicates dropped."),
);

/** Path parameters of /v1/listeners/{listener_token}/* and /v1/listener/{listener_token}/*. */
export const TokenParams = v.object({
  token: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("The listener's account token: the credential.")),
});

export const FeedUrl = v.pipe(v.string(), v.description("The private podcast feed URL. It carries the private feed token, never the account token."));

/** The documented 404 of every path that takes the account token. */
export const TOKEN_NOT_FOUND = { description: "Unknown, rotated or deleted token" } as const;

/** Pagination `limit` with the default docs/rules.md "Rules" 8 gives for that endpoint. */
export function limitQuery(fallback: number) {
  return v.object({
    limit: v.pipe(
      v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), fallback),
      v.description(`How many items, 1 to 100 (default ${fallback}).`),
    ),
  });
}

/** An IANA time zone name that Intl knows, e.g. Europe/Paris. */
export const TimeZone = v.pipe(
  v.string(),
  v.maxLength(64),
  v.check((tz) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "is not an IANA time zone"),
  v.description("IANA time zone used to resolve the active flo block, e.g. Europe/Paris."),
);

/** The {publisher} path parameter (admin keys and secrets, a publisher's lexicon): the name its articles carry. */
export const PublisherParams = v.object({
  publisher: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1),
    v.maxLength(200),
    v.description("The publisher, as its articles name it (PublishRequest.publisher)."),
  ),
});
