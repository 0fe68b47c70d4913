import * as v from "valibot";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { privateFeedToken, proveAddress } from "../account";
import { privateFeedUrl } from "../../kernel/public-urls";
import { MagicExchangeRequest, redeemMagicToken, requireMagic } from "../magic-links";
import { FeedUrl } from "../../kernel/fields";
import { decryptToken } from "../../kernel/listener-tokens";

const ListenerMagicExchangeResponse = named(
  "ListenerMagicExchangeResponse",
  v.object({
    token: v.pipe(v.string(), v.description("The account token (listener paths).")),
    feed_token: v.pipe(v.string(), v.description("The private feed token, the credential of feed_url.")),
    email: v.string(),
    feed_url: FeedUrl,
  }),
);

export const exchangeListenerMagicLink = route({
  method: "POST",
  path: "/v1/auth/listener-magic-link/exchange",
  tag: "auth",
  summary: "Exchange a listener magic-link secret for the listener's tokens and feed URL",
  description:
    "The first sign-in of an address proves it: the account token and feed URL minted before it (by whoever subscribed the address) " +
    "stop working, the agents allowed with them lose access, and this answer carries fresh ones. Later sign-ins return the current ones.",
  auth: "none",
  rateLimit: "read",
  body: v.optional(MagicExchangeRequest),
  responses: {
    200: { description: "Signed in", schema: ListenerMagicExchangeResponse },
    400: { description: "No magic member" },
    404: { description: "Unknown secret" },
    410: { description: "Already used or expired" },
  },
  async handle({ env, body }) {
    const result = await redeemMagicToken(env, requireMagic(body), "listener");
    if (!result.ok) {
      // A secret of the admin scope is unknown to the listener flow.
      if (result.reason === "unknown" || result.reason === "wrong_scope") throw new ApiError("not_found", "unknown magic link");
      throw new ApiError("gone", "this magic link was already used or has expired");
    }
    if (result.listenerId === null) throw new ApiError("not_found", "unknown magic link");
    // The first exchange proves the address: the answer then carries fresh credentials.
    const { listener } = await proveAddress(env, result.listenerId);
    const [token, feedToken] = await Promise.all([decryptToken(env, listener.tokenEncrypted), privateFeedToken(env, listener)]);
    const out: v.InferOutput<typeof ListenerMagicExchangeResponse> = {
      token,
      feed_token: feedToken,
      email: listener.email,
      feed_url: privateFeedUrl(env, feedToken),
    };
    return Response.json(out, { headers: { "Cache-Control": "no-store" } });
  },
});
