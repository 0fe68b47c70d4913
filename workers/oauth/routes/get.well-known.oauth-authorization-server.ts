import { OAUTH_PATHS } from "../server";
import { providerRoute } from "../provider-route";

/** GET {WEB_URL}/.well-known/oauth-authorization-server: the authorization server's metadata (RFC 8414). */
export const getAuthorizationServerMetadata = providerRoute(
  ["GET", "HEAD", "OPTIONS"],
  OAUTH_PATHS.metadata,
  "OAuth 2.1 authorization server metadata (RFC 8414)",
  {
    status: 200,
    description: "The authorization server's metadata",
  },
);
