import { getOpenApi } from "./openapi";

export const agentRoutes = [getOpenApi];
