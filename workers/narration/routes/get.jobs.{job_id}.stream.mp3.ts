import * as v from "valibot";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { database, isActiveJob } from "../../db/index";
import { renderService } from "../../kernel/render-contract";
import { AUDIO_CONTENT_TYPES } from "../../kernel/audio-objects";
import { audioReachOf, audioUrl } from "../../kernel/public-urls";
import { findJob } from "../jobs-service";

export const getJobStream = route({
  method: "GET",
  path: "/v1/jobs/:job_id/stream.mp3",
  tag: "narration",
  summary: "Listen to a render while it runs: its MP3 from the first paragraph on",
  description:
    "The URL render-now and get_audio_url hand out as stream_url while a narration renders. While the job is queued or " +
    "running: 200 audio/mpeg without a length, the MP3 as the render makes it (the ID3 tag, then each paragraph as soon as " +
    "it is voiced, about a second after the request), ending with the last paragraph; the file stored when the render ends " +
    "holds the same frames. Once the job is done: 302 to its MP3. The job's random id is what gives access to it, as it does " +
    "for a raw-text job. No byte ranges while it renders (Accept-Ranges: none).",
  auth: "none",
  rateLimit: "audio",
  params: v.object({ job_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("Job id from render-now, get_audio_url or POST /v1/jobs.")) }),
  responses: {
    200: { description: "The MP3 as it renders", contentType: AUDIO_CONTENT_TYPES.mp3 },
    302: { description: "The job is done: its MP3", headers: { Location: "URL" } },
    404: { description: "Unknown job, or one that failed or was cancelled" },
  },
  async handle({ env, params }) {
    const db = database(env);
    const hit = await findJob(db, params.job_id);
    if (!hit) throw new ApiError("not_found", "no job with that id");
    const stream = isActiveJob(hit.job.state) ? await renderService(env).stream(hit.job.id) : null;
    if (stream) {
      return new Response(stream, {
        headers: { "Content-Type": AUDIO_CONTENT_TYPES.mp3, "Cache-Control": "no-store", "Accept-Ranges": "none" },
      });
    }
    // Finished meanwhile (or before): the stored file.
    const now = stream ? hit.job : (await findJob(db, params.job_id))?.job;
    if (now?.state === "done" && now.audioKey) {
      return new Response(null, { status: 302, headers: { Location: audioUrl(env, now.audioKey, "mp3", audioReachOf(hit)), "Cache-Control": "no-store" } });
    }
    throw new ApiError("not_found", `job ${now?.state ?? "gone"}: no audio to stream`);
  },
});
