import type { Route } from "../core/route";

export const articleRoutes: Route[] = [];
