import * as v from "valibot";

/**
 * The render Queue message. The API Worker inserts the render_jobs row first (state "queued") and
 * sends only its id: the row is the source of truth, so a redelivered message re-reads the current
 * state and the consumer stays idempotent under at-least-once delivery.
 */
export const RenderMessage = v.object({
  job_id: v.pipe(v.string(), v.minLength(1), v.description("Id of the render_jobs row to work on.")),
});

export type RenderMessage = v.InferOutput<typeof RenderMessage>;
