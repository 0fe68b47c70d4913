import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { rotateCredentials } from "../account";
import { FeedUrl, TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";

const RotateResponse = named(
  "ListenerRotateResponse",
  v.object({
    token: v.pipe(v.string(), v.description("The new account token; the old one answers 404 from now on.")),
    feed_url: FeedUrl,
  }),
);

export const rotateToken = route({
  method: "POST",
  path: "/v1/listeners/:token/rotate",
  tag: "listeners",
  summary: "Replace the account token and the private feed URL; the old ones stop working at once",
  auth: "listener_token",
  params: TokenParams,
  responses: {
    200: { description: "The new credentials", schema: RotateResponse },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env }) {
    const rotated = await rotateCredentials(env, listener);
    const out: v.InferOutput<typeof RotateResponse> = { token: rotated.token, feed_url: rotated.feedUrl };
    return Response.json(out, { headers: { "Cache-Control": "no-store" } });
  },
});
