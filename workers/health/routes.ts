import { getHealth } from "./health";
import { getVersion } from "./version";

export const healthRoutes = [getHealth, getVersion];
