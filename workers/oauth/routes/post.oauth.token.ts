import { OAUTH_PATHS } from "../server";
import { providerRoute } from "../provider-route";

/** POST {WEB_URL}/oauth/token: codes with PKCE, rotating refresh tokens, and RFC 7009 revocation. */
export const postOAuthToken = providerRoute(["POST", "OPTIONS"], OAUTH_PATHS.token, "OAuth 2.1 token endpoint", { status: 200, description: "Tokens" });
