import type { Route } from "../../core/route";
import { getProtectedResourceMetadata } from "./routes/get..well-known.oauth-protected-resource";

/** OAuth routes of the route table; the provider's own endpoints are served before it (workers/api.ts). */
export const oauthRoutes: Route[] = [getProtectedResourceMetadata];
