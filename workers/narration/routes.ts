import type { Route } from "../core/route";

export const narrationRoutes: Route[] = [];
