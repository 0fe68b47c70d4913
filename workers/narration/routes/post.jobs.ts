import { eq } from "drizzle-orm";
import * as v from "valibot";
import { mayActFor } from "../../core/auth";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { articles, database } from "../../db/index";
import { VoiceField } from "../fields";
import { type AudioReach, audioReachOf } from "../../kernel/public-urls";
import { MAX_NARRATED_CHARS } from "../../kernel/render-contract";
import { JobView, jobView } from "../job-view";
import { createJob, requireKnownVoice } from "../jobs-service";
import { LanguageField, type NarrationLanguage } from "../../kernel/language";
import { narrationLanguage } from "../../kernel/language-detect";

const JobEnqueueRequest = named(
  "JobEnqueueRequest",
  v.pipe(
    v.object({
      text: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1),
          v.maxLength(MAX_NARRATED_CHARS),
          v.description(
            `Raw text to narrate, at most ${MAX_NARRATED_CHARS} characters (what one render can narrate, in segments: about an hour of speech). A job for an article longer than that fails with "too_long".`,
          ),
        ),
      ),
      article_slug: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("Narrate this article (title and body)."))),
      voice: v.optional(VoiceField),
      language: v.optional(LanguageField),
    }),
    v.check((b) => (b.text === undefined) !== (b.article_slug === undefined), "give exactly one of text and article_slug"),
    v.check((b) => b.language === undefined || b.text !== undefined, "language goes with text: an article is narrated in its own language"),
  ),
);

export const postJob = route({
  method: "POST",
  path: "/v1/jobs",
  tag: "narration",
  summary: "Queue a render job; returns at once",
  description:
    "Requires the API key (query api_key, header x-service-key or x-legacy-key); 401 without it. " +
    "The job is rendered by the render Worker from the Queue (retries with exponential backoff, then a " +
    "dead-letter queue that marks it failed). Poll GET /v1/jobs/{job_id}.",
  auth: "api_key",
  body: JobEnqueueRequest,
  responses: {
    202: { description: "The queued job", schema: JobView, headers: { Location: "/v1/jobs/{job_id}" } },
    404: { description: "Unknown article_slug" },
  },
  async handle({ env, body, caller, ctx, requestId }) {
    let articleId: number | null = null;
    let voice = body.voice ?? null;
    let slug: string | null = null;
    let reach: AudioReach = "private";
    let spoken: NarrationLanguage | null = null;
    if (body.article_slug !== undefined) {
      const article = await database(env).query.articles.findFirst({
        columns: { id: true, slug: true, voice: true, publisher: true, visibility: true, language: true, languageSource: true },
        where: eq(articles.slug, body.article_slug),
      });
      // A publisher key narrates its own publisher's articles only; another's is not found.
      if (!article || !mayActFor(caller, article.publisher)) throw new ApiError("not_found", "no article with that slug");
      ({ id: articleId, slug } = article);
      reach = audioReachOf(article);
      spoken = { language: article.language, language_source: article.languageSource };
      voice ??= article.voice;
    }
    await requireKnownVoice(env, body.voice);
    // A raw text's language is the job's own; an article's stays on the article.
    const own = spoken ? null : narrationLanguage(body.language, body.text!);
    const language = { language: own?.language ?? null, languageSource: own?.language_source ?? null };
    // Raw text is the sending publisher's: its render reuses only that publisher's stored audio (issue 40 item 3).
    const publisher = articleId === null && caller.kind === "publisher" ? caller.publisher : null;
    const job = await createJob(env, { articleId, text: body.text ?? null, voice, priority: "normal", requestId, publisher, ...language }, ctx);
    return Response.json(jobView(env, job, slug, reach, spoken ?? own!), { status: 202, headers: { Location: `/v1/jobs/${job.id}` } });
  },
});
