import { getCacheHealth } from "./cache";
import { getHealth } from "./health";
import { getVersion } from "./version";
import { getWorkerHealth } from "./worker";

export const healthRoutes = [getHealth, getVersion, getWorkerHealth, getCacheHealth];
