import type { ClaimedJob, JobOutcome, RenderStoreRpc } from "../kernel/render-contract";

/**
 * The RenderStore as the render of one claimed job sees it (kernel/render-contract.ts): one call in, one
 * call out. The lexicon came with the claim, so it is not asked for again; the row of the audio the render
 * stores, with its watermark ids, is kept here (`audio()`) and handed back with the job's result (RenderStoreRpc.completeJob) rather
 * than recorded on its own. A claim the render does not own (a stream of a job the Queue runs) records its
 * audio as any render does: the job's result is its runner's to hand back.
 */
export function jobStore(store: RenderStoreRpc, claim: ClaimedJob): { store: RenderStoreRpc; audio(): Pick<JobOutcome, "audio" | "markIds"> } {
  let kept: Pick<JobOutcome, "audio" | "markIds"> = { audio: null, markIds: [] };
  const view: RenderStoreRpc = {
    claimJob: (...args) => store.claimJob(...args),
    claimNext: (...args) => store.claimNext(...args),
    holdsJob: (...args) => store.holdsJob(...args),
    completeJob: (...args) => store.completeJob(...args),
    retryJob: (...args) => store.retryJob(...args),
    failJob: (...args) => store.failJob(...args),
    findAudio: (keys) => store.findAudio(keys),
    recordAudio: async (audio, markIds = []) => {
      if (!claim.owned) return store.recordAudio(audio, markIds);
      kept = { audio, markIds };
    },
    recordEncoding: (...args) => store.recordEncoding(...args),
    fetch: (request) => store.fetch(request),
    readObjects: (reads) => store.readObjects(reads),
    composeObject: (...args) => store.composeObject(...args),
    objectSizes: (paths) => store.objectSizes(paths),
    lexiconFor: async () => claim.lexicon,
  };
  return { store: view, audio: () => kept };
}
