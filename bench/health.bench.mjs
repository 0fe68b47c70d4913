// Baseline: the cost of the router, CORS and JSON for the cheapest endpoint.
import { load, loadRows } from "./http.mjs";

export async function run({ base }) {
  return loadRows("GET /v1/health (router baseline)", await load(() => fetch(`${base}/v1/health`), { total: 1000 }));
}
