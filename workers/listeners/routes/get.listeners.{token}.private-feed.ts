import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { privateFeedToken } from "../account";
import { privateFeedUrl } from "../../kernel/public-urls";
import { FeedUrl, TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

const PrivateFeedResponse = named(
  "PrivateFeedResponse",
  v.object({
    feed_url: FeedUrl,
    instructions: v.string(),
  }),
);

const INSTRUCTIONS =
  "Copy this URL into your podcast app (in Apple Podcasts: Library, then Follow a Show by URL). " +
  "It is private: it lets the app read your feed but gives no control of your account. " +
  "If it leaks, rotate your token to get a new one.";

export const getPrivateFeedUrl = route({
  method: "GET",
  path: "/v1/listeners/:token/private-feed",
  tag: "listeners",
  summary: "The private podcast feed URL; minted on first call, the same afterwards until a rotate",
  auth: "listener_token",
  rateLimit: "read",
  params: TokenParams,
  responses: {
    200: { description: "The feed URL", schema: PrivateFeedResponse },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env }) {
    const url = privateFeedUrl(env, await privateFeedToken(env, listener));
    return Response.json({ feed_url: url, instructions: INSTRUCTIONS }, { headers: { "Cache-Control": "no-store" } });
  },
});
