import { audioObjectPath } from "../kernel/audio-objects";
import { renderStoreObjectUrl, type RenderStoreRpc } from "../kernel/render-contract";
import { recordFailure, runJob } from "./consumer";
import type { Synthesizers } from "./pipeline/render";
import type { Listener } from "./pipeline/store";

/**
 * A job's MP3 as it renders (docs/narration.md "Listening while it renders"): the render Worker
 * claims the queued job for a while (STREAM_LEASE_MS, so the Queue's delivery of it waits) and runs
 * it here, and the stream carries the ID3 tag and each paragraph's frames as soon as LAME makes
 * them: the bytes of the file stored when the render ends, after its tag (whose C2PA manifest is
 * signed over the finished file). A job the Queue is already running is taken over: its render stops
 * before its next paragraph (consumer.ts runJob), and this one reuses the paragraphs it stored, so the
 * job is voiced once. A job another listener's stream holds is rendered again for this listener from
 * the paragraphs stored so far, and left to that stream. The render goes on when the
 * listener leaves (`keepAlive`), so the job ends as if the Queue had run it; a render that fails goes
 * back to the Queue. Null when the job is unknown or finished.
 */
export async function streamJob(
  store: RenderStoreRpc,
  jobId: string,
  synthesizers: Synthesizers,
  keepAlive: (work: Promise<unknown>) => void,
): Promise<ReadableStream<Uint8Array> | null> {
  const claim = await store.claimJob(jobId, "stream");
  if (!claim || "streamedForSeconds" in claim || "deferred" in claim) return null;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const out = writable.getWriter();
  let open = true;
  let heard = 0;
  const close = () => {
    if (open) out.close().catch(() => {});
    open = false;
  };
  // Writes are not awaited: the render never waits for a slow listener (the MP3 is 8 KB a second),
  // and a listener who left only stops hearing it.
  const listener: Listener = {
    hear(bytes) {
      if (!open || bytes.byteLength === 0) return;
      heard += bytes.byteLength;
      out.write(bytes).catch(() => {
        open = false;
      });
    },
    drop: close,
  };
  keepAlive(
    (async () => {
      try {
        const result = await runJob(store, claim, synthesizers, { listener, later: keepAlive });
        // Audio found whole was not rendered here: the listener gets the stored file.
        if (result?.cached && heard === 0 && open) {
          const stored = await store.fetch(new Request(renderStoreObjectUrl(audioObjectPath(result.key, "mp3"))));
          if (stored.ok && stored.body) {
            open = false;
            out.releaseLock();
            await stored.body.pipeTo(writable).catch(() => {});
          }
        }
      } catch (err) {
        if (claim.owned) await recordFailure(store, jobId, 0, err, true);
        if (open) out.abort(err).catch(() => {});
        open = false;
      } finally {
        close();
      }
    })(),
  );
  return readable;
}
