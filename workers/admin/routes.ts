import type { Route } from "../core/route";
import { searchAdminRoutes } from "./search";

/** Every /v1/admin/* route; each domain's admin endpoints live in a file of this folder named for it. */
export const adminRoutes: Route[] = [...searchAdminRoutes];
