import { agentRoutes } from "./agents/routes";
import { buildRouter } from "./core/http";
import type { Route } from "./core/route";
import { healthRoutes } from "./health/routes";

/**
 * Every route of the API Worker, grouped by domain: the table of contents of the API.
 * Order is match order (a specific feed path must come before its wildcard).
 */
export const routes: Route[] = [...healthRoutes, ...agentRoutes];

export const router = buildRouter(routes);
