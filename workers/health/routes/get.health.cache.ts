import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { probe } from "./get.health";

const CacheHealth = named(
  "CacheHealth",
  v.object({
    backend: v.pipe(v.literal("r2"), v.description("The live audio cache backend: the R2 object store (binding AUDIO).")),
    object_store_reachable: v.pipe(v.boolean(), v.description("Whether R2 answered a probe just now.")),
    edge_cache: v.pipe(v.literal("caches.default"), v.description("Repeat audio reads are served from the Workers edge cache.")),
    recent_keys: v.pipe(
      v.array(v.string()),
      v.description("Recently written keys; filesystem backend only, so always empty with the object store (docs/rules.md 4)."),
    ),
  }),
);

export const getCacheHealth = route({
  method: "GET",
  path: "/v1/health/cache",
  tag: "health",
  summary: "Audio cache health: backend and object-store reachability",
  auth: "none",
  responses: { 200: { description: "The audio cache's health", schema: CacheHealth } },
  async handle({ env }) {
    const reachable = (await probe(() => env.AUDIO.head("health-probe"))) === "ok";
    const body: v.InferOutput<typeof CacheHealth> = {
      backend: "r2",
      object_store_reachable: reachable,
      edge_cache: "caches.default",
      recent_keys: [],
    };
    return Response.json(body, { headers: { "Cache-Control": "no-store" } });
  },
});
