import * as v from "valibot";
import { config } from "../../core/config";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { API_VERSION } from "../../core/version";

const VersionResponse = named(
  "VersionResponse",
  v.object({
    version: v.string(),
    commit: v.pipe(v.string(), v.description("Git commit the running build was made from, or unknown.")),
    build_time: v.pipe(v.string(), v.description("When the running build was started or deployed (ISO 8601), or unknown.")),
    compatibility_date: v.pipe(v.string(), v.description("Workers compatibility date of wrangler.toml.")),
  }),
);

export const getVersion = route({
  method: "GET",
  path: "/v1/version",
  tag: "health",
  summary: "Build information",
  auth: "none",
  responses: { 200: { description: "Build information", schema: VersionResponse } },
  handle({ env }) {
    // The start and deploy scripts pass these as vars, read from git and wrangler.toml.
    const { BUILD_COMMIT, BUILD_TIME, COMPATIBILITY_DATE } = config(env);
    const body: v.InferOutput<typeof VersionResponse> = {
      version: API_VERSION,
      commit: BUILD_COMMIT,
      build_time: BUILD_TIME,
      compatibility_date: COMPATIBILITY_DATE,
    };
    return Response.json(body);
  },
});
