import { publisherDefaultVoice } from "./default-voice";
import { and, eq, inArray, isNull, lte, ne, notInArray, or, sql } from "drizzle-orm";
import { WorkerEntrypoint } from "cloudflare:workers";
import {
  ACTIVE_JOB_STATES,
  articles,
  audioMarks,
  audioObjects,
  chunks,
  D1_IN_LIST,
  database,
  type Database,
  isActiveJob,
  type JobRow,
  listeners,
  renderJobs,
} from "../db/index";
import { narratedText } from "../kernel/article-text";
import { sha256Hex } from "../core/crypto";
import { articlePageUrl } from "../core/config";
import { isWebUrl } from "../kernel/web-url";
import { announceJob, type WebhookEvent } from "../kernel/webhook-events";
import { lexiconFor } from "./lexicon-service";
import { enqueueJob } from "./jobs-service";
import {
  renderStoreObjectUrl,
  WHOLE_OBJECT_BYTES,
  type ClaimedJob,
  type JobDeferred,
  type JobOutcome,
  type JobStreamed,
  STREAM_LEASE_MS,
  type LazyFormat,
  type ObjectBytes,
  type ObjectPiece,
  type ObjectRead,
  type RenderStoreRpc,
  renderTenant,
  type StoredAudio,
} from "../kernel/render-contract";
import { heldForReview } from "./review-gate";

type StoreEnv = Pick<Env, "DB" | "AUDIO" | "RENDER_GATE" | "RENDER_QUEUE" | "WEBHOOK_QUEUE">;

const OBJECTS = new URL(renderStoreObjectUrl("")).pathname;

/**
 * The render Worker's only way to D1, R2 and the render gates (kernel/render-contract.ts
 * RenderStoreRpc): bound there as STORE. The render Worker holds no storage binding of its own, so
 * that on one machine its `wrangler dev` process never writes the SQLite files this process owns
 * (two processes on one file fail with SQLITE_BUSY under concurrent writes).
 */
export class RenderStore extends WorkerEntrypoint<Env> implements RenderStoreRpc {
  claimJob(jobId: string, by: "queue" | "stream" = "queue", lastOwners: string[] = []) {
    return claimJob(this.env, jobId, by, lastOwners);
  }

  claimNext(lastOwners: string[] = []) {
    return claimNext(this.env, lastOwners);
  }

  holdsJob(jobId: string, attempt: number) {
    return holdsJob(this.env, jobId, attempt);
  }

  completeJob(claim: ClaimedJob, outcome: JobOutcome) {
    return completeJob(this.env, claim, outcome);
  }

  retryJob(jobId: string, error: string, requeue = false) {
    return retryJob(this.env, jobId, error, requeue);
  }

  failJob(jobId: string, error: string) {
    return failJob(this.env, jobId, error);
  }

  findAudio(keys: string[]) {
    return findAudio(this.env, keys);
  }

  recordAudio(audio: StoredAudio, markIds: string[] = []) {
    return recordAudio(this.env, audio, markIds);
  }

  recordEncoding(key: string, format: LazyFormat, bytes: number) {
    return recordEncoding(this.env, key, format, bytes);
  }

  override fetch(request: Request) {
    return serveObject(this.env, request);
  }

  readObjects(reads: ObjectRead[]) {
    return readObjects(this.env, reads);
  }

  composeObject(path: string, pieces: ObjectPiece[], sha256: string, contentType?: string) {
    return composeObject(this.env, path, pieces, sha256, contentType);
  }

  objectSizes(paths: string[]) {
    return objectSizes(this.env, paths);
  }

  lexiconFor(publisher: string | null) {
    return lexiconFor(this.env, publisher);
  }
}

type ArticleRow = typeof articles.$inferSelect;

/** The owner of raw-text jobs (POST /v1/jobs with text), which have no publisher. */
const RAW_OWNER = "raw";

/** Whose a job is, for fairness between owners: its article's publisher, RAW_OWNER for raw text. */
const ownerOf = (article: ArticleRow | undefined) => article?.publisher ?? RAW_OWNER;

/** ownerOf in SQL, over render_jobs left-joined with articles. */
const JOB_OWNER = sql`coalesce(${articles.publisher}, ${RAW_OWNER})`;

async function claimJob(env: StoreEnv, jobId: string, by: "queue" | "stream", lastOwners: string[]): Promise<ClaimedJob | JobStreamed | JobDeferred | null> {
  const db = database(env);
  const job = await db.select().from(renderJobs).where(eq(renderJobs.id, jobId)).get();
  if (!job) {
    console.warn(`render job ${jobId} not found: acked`);
    return null;
  }
  if (!isActiveJob(job.state)) return null;
  const now = Date.now();
  const streamedFor = job.streamedUntil ? job.streamedUntil.getTime() - now : 0;
  if (by === "queue" && streamedFor > 0) return { streamedForSeconds: Math.ceil(streamedFor / 1000) };
  const article = job.articleId === null ? undefined : await db.select().from(articles).where(eq(articles.id, job.articleId)).get();
  const owner = ownerOf(article);
  if (by === "queue" && lastOwners.includes(owner) && (await otherOwnerWaits(db, job, lastOwners))) {
    await enqueueJob(env, db, jobId);
    return { deferred: true };
  }
  return claim(env, db, job, article, by, now);
}

/**
 * Marks `job` running for the Queue or for a stream, if nobody claimed it since it was read, and says
 * what to narrate (claimJob).
 */
async function claim(
  env: StoreEnv,
  db: Database,
  job: JobRow,
  article: ArticleRow | undefined,
  by: "queue" | "stream",
  now: number,
): Promise<ClaimedJob | null> {
  const jobId = job.id;
  const text = article ? narratedText(article) : job.text;
  if (!text) throw new Error("job has neither an article nor text");
  // A stream takes a job the Queue runs too: its render stops before its next paragraph (holdsJob), so
  // the job is voiced once, with the listener waiting on it. One another stream holds stays that stream's.
  const claimable =
    by === "queue"
      ? inArray(renderJobs.state, ACTIVE_JOB_STATES)
      : or(
          eq(renderJobs.state, "queued"),
          and(eq(renderJobs.state, "running"), or(isNull(renderJobs.streamedUntil), lte(renderJobs.streamedUntil, new Date(now)))),
        );
  const attempt = job.attempts + 1;
  const claimed = await db
    .update(renderJobs)
    .set({ state: "running", attempts: attempt, startedAt: new Date(now), streamedUntil: by === "stream" ? new Date(now + STREAM_LEASE_MS) : null })
    .where(and(eq(renderJobs.id, jobId), eq(renderJobs.attempts, job.attempts), claimable))
    .returning({ id: renderJobs.id });
  // Claimed by someone else since it was read (a stream, or a second delivery of its message): theirs.
  if (by === "queue" && claimed.length === 0) return null;
  const voice = job.voice ?? article?.voice ?? undefined;
  const language = article?.language ?? job.language ?? undefined;
  return {
    jobId,
    text,
    voice,
    language,
    defaultVoice: voice === undefined && article && language ? await publisherDefaultVoice(db, article.publisher, language) : undefined,
    publisher: article?.publisher ?? null,
    title: article?.title ?? null,
    url: article ? articleUrl(env, article) : null,
    tenant: renderTenant(article, job.publisher),
    contentHash: article?.contentHash ?? null,
    lexicon: await lexiconFor(env, article?.publisher ?? null),
    requestId: job.requestId,
    priority: job.priority,
    owner: ownerOf(article),
    owned: claimed.length > 0,
    attempt,
  };
}

async function claimNext(env: StoreEnv, lastOwners: string[]): Promise<ClaimedJob | null> {
  const db = database(env);
  const [next] = await db
    .select({ job: renderJobs, article: articles })
    .from(renderJobs)
    .leftJoin(articles, eq(articles.id, renderJobs.articleId))
    // Never tried: a job that failed waits for its own message, which brings its retry's backoff.
    .where(and(eq(renderJobs.state, "queued"), eq(renderJobs.attempts, 0)))
    .orderBy(
      sql`${renderJobs.priority} = 'high' desc`,
      ...(lastOwners.length > 0 ? [sql`${inArray(JOB_OWNER, lastOwners)}`] : []),
      renderJobs.createdAt,
      renderJobs.id,
    )
    .limit(1);
  return next ? claim(env, db, next.job, next.article ?? undefined, "queue", Date.now()) : null;
}

async function holdsJob(env: StoreEnv, jobId: string, attempt: number): Promise<boolean> {
  const job = await database(env).select({ state: renderJobs.state, attempts: renderJobs.attempts }).from(renderJobs).where(eq(renderJobs.id, jobId)).get();
  return job?.state === "running" && job.attempts === attempt;
}

/** Whether a job of an owner outside `owners`, of at least `job`'s priority, is queued. */
async function otherOwnerWaits(db: Database, job: JobRow, owners: string[]): Promise<boolean> {
  const other = await db
    .select({ id: renderJobs.id })
    .from(renderJobs)
    .leftJoin(articles, eq(articles.id, renderJobs.articleId))
    .where(
      and(
        eq(renderJobs.state, "queued"),
        ne(renderJobs.id, job.id),
        notInArray(JOB_OWNER, owners),
        job.priority === "high" ? eq(renderJobs.priority, "high") : undefined,
      ),
    )
    .limit(1);
  return other.length > 0;
}

/** The article's own address (http or https only), else its page here. */
function articleUrl(env: object, article: { url: string | null; slug: string }): string {
  return article.url && isWebUrl(article.url) ? article.url : articlePageUrl(env, article.slug);
}

async function completeJob(env: StoreEnv, claim: ClaimedJob, { result, audio, markIds, synthesisMs, encodingMs, markingMs }: JobOutcome): Promise<void> {
  const db = database(env);
  const job = await db.select().from(renderJobs).where(eq(renderJobs.id, claim.jobId)).get();
  // The audio's row goes in the batch that marks the job done, so nobody reads a done job without it; a job
  // gone meanwhile, or taken over by a listener's stream (a later attempt, claimJob), leaves its audio
  // recorded all the same, for the next render of the text to find, and the job to its new runner.
  if (!job || job.attempts !== claim.attempt) {
    if (audio) await recordAudio(env, audio, markIds);
    return;
  }
  const recordNew = audio ? audioRows(db, audio, markIds) : [];
  // A publisher that reviews before release gets the audio in `awaiting_review`; the article takes it on release.
  const held = job.articleId !== null && (await heldForReview(db, job.articleId));
  const markDone = db
    .update(renderJobs)
    .set({
      state: held ? "awaiting_review" : "done",
      audioKey: result.key,
      provider: result.provider,
      voice: result.voice,
      requestedVoice: result.requested_voice,
      fallback: result.fallback,
      error: null,
      finishedAt: new Date(),
      synthesisMs,
      encodingMs,
      markingMs,
      charactersSynthesized: result.characters_synthesized,
      paragraphsReused: result.paragraphs_reused,
    })
    .where(and(eq(renderJobs.id, job.id), eq(renderJobs.state, "running")));
  // The article takes the audio only if its text is still the one rendered (a re-publish may have changed it).
  const setArticleAudio =
    job.articleId !== null && claim.contentHash !== null && !held
      ? [
          db
            .update(articles)
            .set({ audioKey: result.key, listenSeconds: Math.round(result.duration_seconds) })
            .where(and(eq(articles.id, job.articleId), eq(articles.contentHash, claim.contentHash))),
        ]
      : [];
  // A pre-warm render done is the listener's first render (pre-warm skips listeners who have one).
  const markWarmed = job.warmListenerId
    ? [
        db
          .update(listeners)
          .set({ firstRenderDoneAt: new Date() })
          .where(and(eq(listeners.id, job.warmListenerId), isNull(listeners.firstRenderDoneAt))),
      ]
    : [];
  await db.batch([markDone, ...recordNew, ...setArticleAudio, ...markWarmed]);
  await releaseSlot(env, job.listenerId, job.id);
  // Held for review, the narration is not ready for listeners until an editor releases it (studio/review.ts).
  await tellPublisher(env, job.id, held ? "narration.awaiting_review" : "narration.ready");
}

async function retryJob(env: StoreEnv, jobId: string, error: string, requeue: boolean): Promise<void> {
  const db = database(env);
  const back = await db
    .update(renderJobs)
    .set({ state: "queued", error, streamedUntil: null })
    .where(and(eq(renderJobs.id, jobId), eq(renderJobs.state, "running")))
    .returning({ id: renderJobs.id });
  if (requeue && back.length > 0) await enqueueJob(env, db, jobId);
}

async function failJob(env: StoreEnv, jobId: string, error: string): Promise<void> {
  const db = database(env);
  const job = await db.select().from(renderJobs).where(eq(renderJobs.id, jobId)).get();
  if (!job || !isActiveJob(job.state)) return;
  await db
    .update(renderJobs)
    .set({ state: "failed", error: job.error ?? error, finishedAt: new Date() })
    .where(and(eq(renderJobs.id, jobId), inArray(renderJobs.state, ACTIVE_JOB_STATES)));
  await releaseSlot(env, job.listenerId, jobId);
  await tellPublisher(env, jobId, "narration.failed");
}

/** The publisher's webhooks hear how a job ended; a failure to queue them never fails the job (the delivery log shows none). */
async function tellPublisher(env: StoreEnv, jobId: string, type: WebhookEvent): Promise<void> {
  await announceJob(env, jobId, type).catch((err: unknown) =>
    console.error(`webhooks of job ${jobId} not queued: ${err instanceof Error ? err.name : "error"}`),
  );
}

async function releaseSlot(env: StoreEnv, listenerId: number | null, jobId: string): Promise<void> {
  if (listenerId === null) return;
  await env.RENDER_GATE.getByName(String(listenerId)).release(jobId);
}

async function findAudio(env: StoreEnv, keys: string[]): Promise<StoredAudio[]> {
  if (keys.length === 0) return [];
  const rows = await database(env).select().from(audioObjects).where(inArray(audioObjects.key, keys));
  return rows.map(({ createdAt: _, ...row }) => row);
}

/** The statements that record new audio and the watermark ids that lead back to it. */
function audioRows(db: Database, audio: StoredAudio, markIds: string[]) {
  const marks = [...new Set(markIds)].map((markId) => ({ markId, audioKey: audio.key }));
  // Two bound values a row: a chunk of D1_IN_LIST / 2 rows stays under D1's bound-parameter limit.
  return [
    db.insert(audioObjects).values(audio).onConflictDoNothing(),
    ...chunks(marks, D1_IN_LIST / 2).map((rows) => db.insert(audioMarks).values(rows).onConflictDoNothing()),
  ] as const;
}

async function recordAudio(env: StoreEnv, audio: StoredAudio, markIds: string[]): Promise<void> {
  const db = database(env);
  await db.batch(audioRows(db, audio, markIds));
}

async function recordEncoding(env: StoreEnv, key: string, format: LazyFormat, bytes: number): Promise<void> {
  await database(env)
    .update(audioObjects)
    .set(format === "opus" ? { opusBytes: bytes } : { wavBytes: bytes })
    .where(eq(audioObjects.key, key));
}

async function serveObject(env: StoreEnv, request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(OBJECTS)) return new Response("not found", { status: 404 });
  const path = pathname.slice(OBJECTS.length);
  if (request.method === "GET") {
    // A range (one "bytes=a-b"): a stored paragraph's samples are read without its header (paragraph-cache.ts).
    const ranged = request.headers.has("range");
    const object = await env.AUDIO.get(path, ranged ? { range: request.headers } : undefined);
    if (!object) return new Response("no such object", { status: 404 });
    const { offset, length } = rangeRead(object, ranged);
    const body = length <= WHOLE_OBJECT_BYTES ? await object.arrayBuffer() : object.body;
    if (!ranged) return new Response(body, { headers: { "content-length": String(object.size) } });
    return new Response(body, {
      status: 206,
      headers: { "content-length": String(length), "content-range": `bytes ${offset}-${offset + length - 1}/${object.size}` },
    });
  }
  if (request.method !== "PUT") return new Response("method not allowed", { status: 405 });
  const stated = request.headers.get("content-length");
  if (!request.body || stated === null) return new Response("a length is required", { status: 411 });
  const contentType = request.headers.get("content-type");
  const body = Number(stated) <= WHOLE_OBJECT_BYTES ? await request.arrayBuffer() : request.body;
  await env.AUDIO.put(path, body, contentType ? { httpMetadata: { contentType } } : undefined);
  return new Response(null, { status: 201 });
}

/** Where the bytes R2 answered lie in `object`: all of it, or the range it read. */
function rangeRead(object: R2ObjectBody, ranged: boolean): { offset: number; length: number } {
  const { offset = 0, length = object.size - offset } = (ranged ? (object.range ?? {}) : {}) as { offset?: number; length?: number };
  return { offset, length };
}

/**
 * R2 reads of readObjects in flight at once: a call cut short by its bytes (RenderStoreRpc.readObjects)
 * has started at most this many it does not answer.
 */
const READS_AT_ONCE = 16;

async function readObjects(env: StoreEnv, reads: ObjectRead[]): Promise<(ObjectBytes | null)[]> {
  const answered: (ObjectBytes | null)[] = [];
  let bytes = 0;
  for (let at = 0; at < reads.length; at += READS_AT_ONCE) {
    const objects = await Promise.all(
      reads.slice(at, at + READS_AT_ONCE).map(({ path, range }) =>
        // As a Range header, as fetch's ranged GET (serveObject): a range past the object's end reads to its end.
        env.AUDIO.get(path, range ? { range: new Headers({ range: `bytes=${range.offset}-${range.offset + range.length - 1}` }) } : undefined),
      ),
    );
    const taken = [];
    for (const [i, object] of objects.entries()) {
      const length = object ? rangeRead(object, reads[at + i].range !== undefined).length : 0;
      if (bytes + length > WHOLE_OBJECT_BYTES) break;
      bytes += length;
      taken.push(object);
    }
    for (const object of objects.slice(taken.length)) await object?.body.cancel();
    answered.push(
      ...(await Promise.all(taken.map(async (object) => (object ? { bytes: new Uint8Array(await object.arrayBuffer()), size: object.size } : null)))),
    );
    if (taken.length < objects.length) break;
  }
  return answered;
}

// A refusal is an answer, not an error: an RPC method that throws leaves its rejection unhandled on
// the callee's side too, and the render has a way on (it sends the bytes).
async function composeObject(env: StoreEnv, path: string, pieces: ObjectPiece[], sha256: string, contentType?: string): Promise<number | { refused: string }> {
  const bytes = await Promise.all(
    pieces.map(async (piece) => {
      if (piece instanceof Uint8Array) return piece;
      const object = await env.AUDIO.get(piece.path, { range: piece.range });
      const read = object ? new Uint8Array(await object.arrayBuffer()) : null;
      return read?.byteLength === piece.range.length ? read : piece.path;
    }),
  );
  const missing = bytes.find((b) => typeof b === "string");
  if (missing !== undefined) return { refused: `${missing} does not hold the range asked for` };
  const size = bytes.reduce((n, b) => n + (b as Uint8Array).byteLength, 0);
  if (size > WHOLE_OBJECT_BYTES) return { refused: `${size} bytes is over ${WHOLE_OBJECT_BYTES}` };
  const whole = new Uint8Array(await new Blob(bytes as Uint8Array[]).arrayBuffer());
  if ((await sha256Hex(whole)) !== sha256) return { refused: "the pieces are not the bytes hashed" };
  await env.AUDIO.put(path, whole, contentType ? { httpMetadata: { contentType } } : undefined);
  return size;
}

async function objectSizes(env: StoreEnv, paths: string[]): Promise<(number | null)[]> {
  const heads = await Promise.all(paths.map((p) => env.AUDIO.head(p)));
  return heads.map((h) => h?.size ?? null);
}
