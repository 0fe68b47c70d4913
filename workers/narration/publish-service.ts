import { and, eq, isNull, like, lt, or, sql } from "drizzle-orm";
import { articleBySlug, forgetRecentArticle } from "../kernel/article-by-slug";
import { contentHash } from "../kernel/article-text";
import { narrationLanguage } from "../kernel/language-detect";
import { mayActFor, type ApiCaller } from "../core/auth";
import { ApiError, ValidationError } from "../core/errors";
import { type ArticleRow, articles, creators, database, isActiveJob, renderJobs, type Database } from "../db";
import { latestJob } from "./article-audio-service";
import { enqueueJobAfterResponse, newJobRow } from "./jobs-service";
import { requireKnownVoice } from "./known-voice";
import type { PublishRequest, PublishResponse } from "./publish-schema";
import { slugCandidate, slugify } from "../kernel/slug";

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
export async function publishArticle(
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
