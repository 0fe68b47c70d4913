import { exports } from "cloudflare:workers";
import { type ClaimedJob, type JobOutcome, type RenderResult, type RenderStoreRpc, renderStore } from "../../workers/kernel/render-contract";

/**
 * The render Worker's `env` in tests that call its modules directly: STORE is the API Worker's own
 * RenderStore entrypoint, reached over RPC as the render Worker reaches it.
 */
export const renderEnv = { STORE: (exports as unknown as Record<string, unknown>).RenderStore };

/** The RenderStore of renderEnv. */
export const store = renderStore(renderEnv);

/**
 * `store` with every write of a master held until `release()`: what a reader sees while a render's
 * master is still being stored (workers/render/pipeline/store.ts renderWriter `later`).
 */
export function holdingMasters(): { store: RenderStoreRpc; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const holding = Object.create(store) as RenderStoreRpc;
  holding.fetch = async (request) => {
    if (request.method === "PUT" && new URL(request.url).pathname.includes("/master/")) await held;
    return store.fetch(request);
  };
  return { store: holding, release };
}

/** The result of a render of the offline engine's female voice, found nowhere (not cached); `over` changes it. */
function renderResult(over: Partial<RenderResult>): RenderResult {
  return {
    key: "a".repeat(64),
    provider: "offline",
    voice: "en-US-female",
    quality: "formant",
    requested_voice: null,
    fallback: false,
    cached: false,
    duration_seconds: 3,
    characters_synthesized: 0,
    paragraphs_reused: 0,
    paragraphs_encoded: 0,
    ...over,
  };
}

/**
 * Hands back a finished render of the claimed job, as the render Worker's consumer does (one completeJob:
 * workers/render/consumer.ts runJob); `over` changes the result, `outcome` the rest of what is handed back.
 */
export function completeJob(claim: ClaimedJob, over: Partial<RenderResult> = {}, outcome: Partial<Omit<JobOutcome, "result">> = {}): Promise<void> {
  return store.completeJob(claim, { result: renderResult(over), audio: null, markIds: [], synthesisMs: 1, encodingMs: 1, markingMs: 1, ...outcome });
}

/** Claims the queued job `jobId` (one claimJob) and completes it (completeJob); returns the claim. */
export async function finishJob(jobId: string, over: Partial<RenderResult> = {}, outcome: Partial<Omit<JobOutcome, "result">> = {}): Promise<ClaimedJob> {
  const claim = (await store.claimJob(jobId)) as ClaimedJob;
  await completeJob(claim, over, outcome);
  return claim;
}
