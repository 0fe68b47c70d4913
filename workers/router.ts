import { adminRoutes } from "./admin/routes";
import { oauthRoutes } from "./agents/oauth/routes";
import { agentRoutes } from "./agents/routes";
import { articleRoutes } from "./articles/routes";
import { buildRouter } from "./core/http";
import type { Route } from "./core/route";
import { feedRoutes } from "./feeds/routes";
import { healthRoutes } from "./health/routes";
import { listenerRoutes } from "./listeners/routes";
import { narrationRoutes } from "./narration/routes";

/**
 * Every route of the API Worker, grouped by domain: the table of contents of the API.
 * Order is match order (a specific feed path must come before its wildcard).
 */
export const routes: Route[] = [
  ...healthRoutes,
  ...narrationRoutes,
  ...articleRoutes,
  ...listenerRoutes,
  ...feedRoutes,
  ...adminRoutes,
  ...agentRoutes,
  ...oauthRoutes,
];

export const router = buildRouter(routes);
