import { and, eq, isNull, like, lt, or, sql } from "drizzle-orm";
import * as v from "valibot";
import { mayActFor, type ApiCaller, signedDelivery } from "../../core/auth";
import { ApiError, ValidationError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { type ArticleRow, articles, creators, database, isActiveJob, renderJobs, type Database } from "../../db";
import { articleBySlug, forgetRecentArticle } from "../../kernel/article-by-slug";
import { contentHash, MAX_SLUG_LENGTH, SLUG_PATTERN, slugCandidate, slugify } from "../../kernel/article-text";
import { HOSTS } from "../../kernel/hosts";
import { LanguageField, LanguageFields } from "../../kernel/language";
import { narrationLanguage } from "../../kernel/language-detect";
import { MAX_NARRATED_CHARS } from "../../kernel/render-contract";
import { articleUrlField } from "../../kernel/web-url";
import { latestJob } from "../article-audio-service";
import { MAX_ARTICLE_CHARS, VoiceField } from "../fields";
import { enqueueJobAfterResponse, newJobRow, requireKnownVoice } from "../jobs-service";

/** Visibilities a publisher may set; listener_private belongs to articles a listener forwards, never to publishers. */
export const PUBLISHER_VISIBILITIES = ["public", "publisher_only"] as const;

/** The body of POST /v1/webhook/publish. */
export const PublishRequest = named(
  "PublishRequest",
  v.object({
    slug: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(MAX_SLUG_LENGTH),
        v.regex(SLUG_PATTERN, "must be kebab-case: lower-case letters, digits and single dashes"),
        v.description("Article slug; when omitted it is derived from the title (kebab-case, made unique with -2, -3, ...)."),
      ),
    ),
    title: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(300), v.description("Headline; narrated before the body.")),
    publisher: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.description("Publisher name.")),
    vertical: v.pipe(
      v.string(),
      v.maxLength(80),
      v.regex(/^[a-z0-9_-]+$/, "must be a vertical slug"),
      v.description("Topic slug (tech, finance, science, news, young_moms, ...)."),
    ),
    body_text: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1),
      v.maxLength(MAX_ARTICLE_CHARS),
      v.description(
        `Full plain text of the article. Narration takes at most ${MAX_NARRATED_CHARS} characters of title + ". " + body (about an hour, rendered in segments); a longer article is stored, but its render job fails with "too_long".`,
      ),
    ),
    summary: v.optional(v.pipe(v.string(), v.maxLength(2_000), v.description("Short summary.")), ""),
    url: v.optional(articleUrlField("Canonical URL on the publisher's site (http or https).")),
    published_at: v.optional(v.pipe(v.string(), v.isoTimestamp(), v.description("Publication time (ISO 8601); a new article's created_at. Defaults to now."))),
    voice: v.optional(VoiceField),
    language: v.optional(LanguageField),
    visibility: v.optional(
      v.pipe(
        v.picklist(PUBLISHER_VISIBILITIES),
        v.description("public (default) or publisher_only (a thin noindex stub); listener_private is reserved for listener-forwarded articles."),
      ),
      "public",
    ),
    host: v.optional(v.pipe(v.picklist(HOSTS), v.description("Host persona whose feed carries the article."))),
    declassified: v.optional(v.pipe(v.boolean(), v.description("Listed in the declassified-cases feed.")), false),
    creator: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(MAX_SLUG_LENGTH),
        v.regex(SLUG_PATTERN, "must be a creator slug"),
        v.description("Slug of a creator tenant (POST /v1/admin/creators); its feed /v1/podcasts/creator/{slug}.xml carries the article."),
      ),
    ),
  }),
);

export type PublishRequest = v.InferOutput<typeof PublishRequest>;

/** The answer of POST /v1/webhook/publish. */
export const PublishResponse = named(
  "PublishResponse",
  v.object({
    slug: v.pipe(v.string(), v.description("The article's slug (derived when the request had none).")),
    job_id: v.pipe(v.nullable(v.string()), v.description("The pre-render job, or null when the text and voice are unchanged and their render did not fail.")),
    created: v.pipe(v.boolean(), v.description("True when the article is new, false when an existing one was updated.")),
    rendered: v.pipe(v.boolean(), v.description("True when audio of the current text and voice already exists.")),
    ...LanguageFields,
  }),
);

export type PublishResponse = v.InferOutput<typeof PublishResponse>;

/** How many "-<n>" suffixes a derived slug may try before giving up. */
const MAX_SLUG_TRIES = 50;

/**
 * The article a request addresses. With a slug, the article at that slug. Without one, the slug
 * is derived from the title; an existing article there is the same article only when publisher
 * and title match (so re-publishing is idempotent), otherwise the next free "-<n>" is taken.
 */
async function target(db: Database, req: PublishRequest): Promise<{ slug: string; existing: ArticleRow | undefined }> {
  if (req.slug) return { slug: req.slug, existing: await articleBySlug(db, req.slug) };
  const base = slugify(req.title);
  const taken = await db.query.articles.findMany({
    where: or(eq(articles.slug, base), like(articles.slug, `${base}-%`)),
  });
  const bySlug = new Map(taken.map((a) => [a.slug, a]));
  for (let n = 1; n <= MAX_SLUG_TRIES; n++) {
    const slug = slugCandidate(base, n);
    const hit = bySlug.get(slug);
    if (!hit) return { slug, existing: undefined };
    if (hit.publisher === req.publisher && hit.title === req.title) return { slug, existing: hit };
  }
  throw new ApiError("conflict", "too many articles share this title; send an explicit slug");
}

/** The id of the creator tenant `slug`; an unknown slug is a validation error on the request. */
async function creatorIdOf(db: Database, slug: string): Promise<number> {
  const creator = await db.query.creators.findFirst({ columns: { id: true }, where: eq(creators.slug, slug) });
  if (!creator) throw new ValidationError([{ loc: ["body", "creator"], msg: `no creator tenant is named ${slug}`, type: "unknown_creator" }]);
  return creator.id;
}

/** True when the article's newest render job is still queued or running. */
async function renderInFlight(db: Database, articleId: number): Promise<boolean> {
  const job = await latestJob(db, articleId);
  return job !== undefined && isActiveJob(job.state);
}

/**
 * Upserts a published article and queues its pre-render when it is new, its text or voice
 * changed, or its last render failed. Article and job are written in one D1 batch; the Queue message
 * follows after the response (enqueueJobAfterResponse).
 * `delivery` is the delivery's signed time and MAC: the signature stops replays only beyond its 300 s
 * tolerance, so a delivery signed before the last one applied (a captured one, replayed) is refused
 * rather than allowed to bring back the older version. The time has whole seconds, so deliveries
 * signed in the same second apply in the order they arrive, as a CMS saving twice in a second
 * expects; but a tie never wins twice (issue 40 item 9): the MACs applied in that second are kept, and
 * one of them, replayed after a later delivery of the same second, is refused like an older one.
 */
async function publishArticle(
  env: Pick<Env, "DB" | "RENDER_QUEUE">,
  req: PublishRequest,
  caller: ApiCaller,
  delivery: { signedAt: Date; mac: string; requestId: string },
  ctx: ExecutionContext,
): Promise<PublishResponse> {
  const { signedAt, mac } = delivery;
  const db = database(env);
  const { slug, existing } = await target(db, req);
  if (existing?.visibility === "listener_private") {
    throw new ApiError("conflict", "that slug belongs to a listener-forwarded article");
  }
  // A publisher's own signing secret publishes and updates that publisher's articles only.
  if (existing && !mayActFor(caller, existing.publisher)) throw new ApiError("conflict", "that slug belongs to another publisher's article");
  await requireKnownVoice(env, req.voice);
  const creatorId = req.creator ? await creatorIdOf(db, req.creator) : null;
  // Detected again on every delivery: the text may have changed language.
  const spoken = narrationLanguage(req.language, `${req.title}\n${req.body_text}`);
  const hash = await contentHash({ ...req, language: spoken.language });
  const changed = !existing || existing.contentHash !== hash;
  const now = new Date();
  const publishedAt = req.published_at ? new Date(req.published_at) : null;
  const fields = {
    title: req.title,
    publisher: req.publisher,
    vertical: req.vertical,
    summary: req.summary,
    bodyText: req.body_text,
    url: req.url ?? null,
    visibility: req.visibility,
    host: req.host ?? null,
    declassified: req.declassified,
    voice: req.voice ?? null,
    language: spoken.language,
    languageSource: spoken.language_source,
    creatorId,
  };
  const same =
    existing &&
    !changed &&
    Object.entries(fields).every(([k, val]) => existing[k as keyof typeof fields] === val) &&
    (publishedAt === null || existing.publishedAt?.getTime() === publishedAt.getTime());
  // Unchanged text whose render failed or was cancelled is rendered again: publishing is how a
  // publisher says "this article should have audio". A job still in flight is left to finish.
  const retry = !changed && existing.audioKey === null && !(await renderInFlight(db, existing.id));
  const tie = existing?.deliverySignedAt?.getTime() === signedAt.getTime();
  // A delivery applied before that changes the article now is a replay over a later one of its second;
  // one that changes nothing is a sender's retry, answered as before.
  const replayedTie = tie && !same && existing.deliveryMacs.split(" ").includes(mac);
  if ((existing?.deliverySignedAt && signedAt < existing.deliverySignedAt) || replayedTie) {
    throw new ApiError("conflict", "a delivery of this article signed later was already applied");
  }
  const macs = sql`${articles.deliveryMacs} || ' ' || ${mac}`;
  if (same && !retry) {
    // An unchanged version signed in the tied second is recorded all the same: replayed after a later
    // delivery of that second, it would bring this version back.
    if (tie && !existing.deliveryMacs.split(" ").includes(mac)) await db.update(articles).set({ deliveryMacs: macs }).where(eq(articles.id, existing.id));
    return { slug, job_id: null, created: false, rendered: existing.audioKey !== null, ...spoken };
  }

  const job =
    changed || retry
      ? newJobRow({ articleId: null, listenerId: null, text: null, voice: req.voice ?? null, priority: "normal", requestId: delivery.requestId })
      : null;
  const write = same
    ? undefined
    : existing
      ? db
          .update(articles)
          .set({
            ...fields,
            publishedAt: publishedAt ?? existing.publishedAt,
            updatedAt: now,
            deliverySignedAt: signedAt,
            deliveryMacs: tie ? macs : mac,
            // New text or voice: the old audio no longer narrates this article.
            ...(changed ? { contentHash: hash, audioKey: null, listenSeconds: null } : {}),
          })
          // A later delivery applied meanwhile wins, and so does this very one applied meanwhile.
          .where(
            and(
              eq(articles.id, existing.id),
              or(
                isNull(articles.deliverySignedAt),
                lt(articles.deliverySignedAt, signedAt),
                and(eq(articles.deliverySignedAt, signedAt), sql`instr(' ' || ${articles.deliveryMacs} || ' ', ${` ${mac} `}) = 0`),
              ),
            ),
          )
      : db
          .insert(articles)
          .values({ ...fields, slug, contentHash: hash, publishedAt, createdAt: publishedAt ?? now, deliverySignedAt: signedAt, deliveryMacs: mac });
  try {
    if (job) {
      const articleId = sql`(SELECT ${articles.id} FROM ${articles} WHERE ${articles.slug} = ${slug})`;
      const insertJob = db.insert(renderJobs).values({ ...job, articleId });
      await (write ? db.batch([write, insertJob]) : insertJob);
    } else if (write) {
      await write;
    }
  } catch (err) {
    // Two deliveries of one new article raced for its slug: the other one won; a retry updates it.
    if (err instanceof Error && /UNIQUE constraint failed: articles\.slug/.test(`${err.message} ${String(err.cause)}`)) {
      throw new ApiError("conflict", "the article was being created by a concurrent request; retry", { "Retry-After": "1" });
    }
    throw err;
  }
  if (write) forgetRecentArticle(slug);
  if (job) enqueueJobAfterResponse(env, ctx, db, job.id);
  return { slug, job_id: job?.id ?? null, created: !existing, rendered: !changed && existing.audioKey !== null, ...spoken };
}

export const postPublishWebhook = route({
  method: "POST",
  path: "/v1/webhook/publish",
  tag: "narration",
  summary: "Publisher CMS webhook: upsert an article and pre-render its audio",
  description:
    'Signed with header x-legacy-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>, where the secret is PUBLISH_WEBHOOK_SECRET ' +
    "or the publisher's own signing secret (POST /v1/admin/publishers/{publisher}/webhook-secret), which publishes that publisher's articles only. " +
    "A missing, malformed or wrong signature, or a timestamp more than 300 s from now, answers 401 and changes nothing. " +
    "Re-publishing updates the article and renders again only when the title, body or voice changed. " +
    "A delivery signed before the last one applied to the article answers 409 and changes nothing, so a captured " +
    "delivery replayed within the 300 s cannot bring back an older version.",
  auth: "webhook_signature",
  body: PublishRequest,
  responses: {
    200: { description: "The article was stored", schema: PublishResponse },
    409: {
      description:
        "The slug belongs to a listener-forwarded article, or to another publisher's article (publisher secret), or a newer delivery of the article was applied",
    },
  },
  async handle({ env, body, caller, request, ctx, requestId }) {
    // The route table verified the signature, so its time and MAC are the publisher's own.
    const delivery = signedDelivery(request.headers.get("x-legacy-signature"))!;
    return Response.json(await publishArticle(env, body, caller, { ...delivery, requestId }, ctx));
  },
});
