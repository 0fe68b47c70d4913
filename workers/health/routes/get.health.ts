import * as v from "valibot";
import { hasApiKey } from "../../core/auth";
import { configProblems } from "../../core/config";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { API_VERSION } from "../../core/version";
import { narrationProblems } from "../narration-state";

const BindingState = v.picklist(["ok", "error", "missing"]);

const HealthResponse = named(
  "HealthResponse",
  v.object({
    status: v.pipe(
      v.picklist(["ok", "degraded"]),
      v.description(
        "degraded when narration is failing (render jobs failed in the last 10 minutes, or the render Worker does not answer); reasons says why. Checked at most every 5 s.",
      ),
    ),
    reasons: v.pipe(v.array(v.string()), v.description("Why the status is degraded, in words; empty when ok.")),
    service: v.string(),
    version: v.string(),
    configuration: v.pipe(
      v.object({
        ok: v.boolean(),
        problems: v.array(v.object({ part: v.string(), variable: v.string(), message: v.string() })),
      }),
      v.description("Whether every var, secret and binding passed the configuration schema; each problem names its part and variable, never a value."),
    ),
    bindings: v.pipe(v.optional(v.record(v.string(), BindingState)), v.description("State of each binding; present only with a valid x-service-key.")),
  }),
);

type State = v.InferOutput<typeof BindingState>;

/** Whether a binding answers: "error" when the check throws or rejects. */
export async function probe(check: () => Promise<unknown>): Promise<State> {
  try {
    await check();
    return "ok";
  } catch {
    return "error";
  }
}

async function bindingStates(env: Env): Promise<Record<string, State>> {
  const [DB, AUDIO] = await Promise.all([probe(() => env.DB.prepare("SELECT 1").first()), probe(() => env.AUDIO.head("health-probe"))]);
  const bound = (b: unknown): State => (b ? "ok" : "missing");
  return {
    DB,
    AUDIO,
    RENDER_QUEUE: bound(env.RENDER_QUEUE),
    RATE_LIMITER: bound(env.RATE_LIMITER),
    AI: bound(env.AI),
  };
}

export const getHealth = route({
  method: "GET",
  path: "/v1/health",
  tag: "health",
  summary: "Liveness, whether narration works, and configuration problems by part; with a valid x-service-key, also the state of each binding",
  auth: "none",
  responses: { 200: { description: "The service is up", schema: HealthResponse } },
  async handle({ env, request, url, ctx }) {
    const problems = configProblems(env);
    const reasons = problems.length === 0 ? await narrationProblems(env, ctx) : ["the configuration has problems"];
    const body: v.InferOutput<typeof HealthResponse> = {
      status: reasons.length === 0 ? "ok" : "degraded",
      reasons,
      service: "narration-api",
      version: API_VERSION,
      configuration: { ok: problems.length === 0, problems },
    };
    // The API key itself is configuration: without a valid configuration there is nothing to check it against.
    if (problems.length === 0 && (await hasApiKey(env, request, url))) body.bindings = await bindingStates(env);
    return Response.json(body, { headers: { "Cache-Control": "no-store" } });
  },
});
