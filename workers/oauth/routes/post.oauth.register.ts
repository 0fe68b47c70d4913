import { OAUTH_PATHS } from "../server";
import { providerRoute } from "../provider-route";

/** POST {WEB_URL}/oauth/register: RFC 7591 dynamic client registration. */
export const postOAuthRegister = providerRoute(["POST", "OPTIONS"], OAUTH_PATHS.register, "OAuth 2.1 dynamic client registration (RFC 7591)", {
  status: 201,
  description: "The registered client",
});
