import type { Route } from "../core/route";

export const feedRoutes: Route[] = [];
