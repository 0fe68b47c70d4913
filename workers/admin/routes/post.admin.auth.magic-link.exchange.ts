import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { MagicExchangeRequest, redeemMagicToken, requireMagic } from "../../listeners/magic-links";
import { AdminTokenResponse, adminTokenResponse } from "../admin-token";
import * as v from "valibot";

export const exchangeAdminMagicLink = route({
  method: "POST",
  path: "/v1/admin/auth/magic-link/exchange",
  tag: "admin-auth",
  summary: "Exchange an admin magic-link secret for the admin token",
  auth: "none",
  body: v.optional(MagicExchangeRequest),
  responses: {
    200: { description: "Signed in", schema: AdminTokenResponse },
    400: { description: "No magic member" },
    410: { description: "Used, expired, wrong scope or unknown: all the same (docs/rules.md 7)" },
    503: { description: "No admin token is configured" },
  },
  async handle({ env, body }) {
    const result = await redeemMagicToken(env, requireMagic(body), "admin");
    if (!result.ok) throw new ApiError("gone", "this magic link is not valid");
    return adminTokenResponse(env);
  },
});
