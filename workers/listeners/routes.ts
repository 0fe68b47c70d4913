import type { Route } from "../core/route";

export const listenerRoutes: Route[] = [];
