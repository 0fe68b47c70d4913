import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import * as v from "valibot";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { articles, audioObjects, chunks, database, renderJobs, type Database } from "../../db";
import { allObjectPaths } from "../../kernel/audio-objects";

/**
 * POST /v1/admin/cancelled-audio/cleanup (docs/rules.md "Rules" 4): cancelled jobs may leave audio that
 * nothing plays. Objects still referenced by a done job or an article are kept; the rest are
 * deleted in batches, and the cancelled jobs' key references are nulled. Errors are collected,
 * never fatal: a key whose delete failed keeps its references, so the next run retries it.
 */

/** Default publisher pattern: every publisher, and raw-text jobs (no article, publisher ""). */
const DEFAULT_PUBLISHER_PATTERN = "%";
const MAX_LIMIT = 10_000;
/** R2 deletes at most 1,000 keys per call. */
const MAX_BATCH = 1_000;
const CleanupRequest = named(
  "CancelledAudioCleanupRequest",
  v.object({
    publisher_name_pattern: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(200),
        v.description(`SQL LIKE pattern on the article's publisher; default "${DEFAULT_PUBLISHER_PATTERN}" (all, including raw-text jobs).`),
      ),
      DEFAULT_PUBLISHER_PATTERN,
    ),
    dry_run: v.optional(v.pipe(v.boolean(), v.description("Report what would be deleted without deleting (default true).")), true),
    limit: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_LIMIT), v.description(`Most cancelled job rows per call, 1 to ${MAX_LIMIT}.`)),
      5_000,
    ),
    batch_size: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_BATCH), v.description(`Objects per R2 delete call, 1 to ${MAX_BATCH}.`)),
      1_000,
    ),
  }),
);

const CleanupReport = named(
  "CancelledAudioCleanupReport",
  v.object({
    rows_scanned: v.pipe(v.number(), v.description("Cancelled jobs with an audio key that matched.")),
    object_keys_targeted: v.pipe(v.number(), v.description("R2 object keys (every encoding and the master) no done job or article references.")),
    deleted: v.pipe(v.number(), v.description("R2 object keys deleted (0 on a dry run).")),
    rows_nulled: v.pipe(v.number(), v.description("Job rows whose audio_key was nulled (0 on a dry run).")),
    errors: v.array(v.string()),
    dry_run: v.boolean(),
    publisher_name_pattern: v.string(),
  }),
);

/** The subset of `keys` a done job or an article still references. */
async function stillReferenced(db: Database, keys: string[]): Promise<Set<string>> {
  const used = new Set<string>();
  for (const part of chunks(keys)) {
    const [jobs, arts] = await Promise.all([
      db
        .selectDistinct({ key: renderJobs.audioKey })
        .from(renderJobs)
        .where(and(eq(renderJobs.state, "done"), inArray(renderJobs.audioKey, part))),
      db.selectDistinct({ key: articles.audioKey }).from(articles).where(inArray(articles.audioKey, part)),
    ]);
    for (const r of [...jobs, ...arts]) if (r.key) used.add(r.key);
  }
  return used;
}

/** How many master segments each key was rendered in (objects.ts masterObjectPaths); 1 when unknown. */
async function segmentCounts(db: Database, keys: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const part of chunks(keys)) {
    const rows = await db.select({ key: audioObjects.key, segments: audioObjects.segments }).from(audioObjects).where(inArray(audioObjects.key, part));
    for (const r of rows) counts.set(r.key, r.segments);
  }
  return counts;
}

export const cleanupCancelledAudio = route({
  method: "POST",
  path: "/v1/admin/cancelled-audio/cleanup",
  tag: "admin",
  summary: "Delete audio left by cancelled jobs and null their key references (dry run by default)",
  auth: "admin",
  body: v.optional(CleanupRequest, {}),
  responses: {
    200: { description: "What was (or would be) deleted", schema: CleanupReport },
  },
  async handle({ env, body }) {
    const db = database(env);
    const rows = await db
      .select({ id: renderJobs.id, key: renderJobs.audioKey })
      .from(renderJobs)
      .leftJoin(articles, eq(articles.id, renderJobs.articleId))
      .where(
        and(eq(renderJobs.state, "cancelled"), isNotNull(renderJobs.audioKey), sql`coalesce(${articles.publisher}, '') LIKE ${body.publisher_name_pattern}`),
      )
      .orderBy(renderJobs.createdAt)
      .limit(body.limit);
    const keys = [...new Set(rows.map((r) => r.key as string))];
    const used = await stillReferenced(db, keys);
    const orphans = keys.filter((k) => !used.has(k));
    const segments = await segmentCounts(db, orphans);
    const paths = orphans.flatMap((key) => allObjectPaths(key, segments.get(key)).map((path) => ({ key, path })));
    const report: v.InferOutput<typeof CleanupReport> = {
      rows_scanned: rows.length,
      object_keys_targeted: paths.length,
      deleted: 0,
      rows_nulled: 0,
      errors: [],
      dry_run: body.dry_run,
      publisher_name_pattern: body.publisher_name_pattern,
    };
    if (body.dry_run) return Response.json(report);

    const failed = new Set<string>();
    for (const [i, batch] of chunks(paths, body.batch_size).entries()) {
      try {
        await env.AUDIO.delete(batch.map((p) => p.path));
        report.deleted += batch.length;
      } catch (err) {
        for (const p of batch) failed.add(p.key);
        report.errors.push(`delete batch ${i + 1} (${batch.length} objects): ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    // Keys kept because they are referenced elsewhere need no delete; their cancelled rows are nulled too.
    const gone = orphans.filter((k) => !failed.has(k));
    const settled = new Set([...gone, ...used]);
    const ids = rows.filter((r) => settled.has(r.key as string)).map((r) => r.id);
    const writes = [
      ...chunks(ids).map((part) => db.update(renderJobs).set({ audioKey: null }).where(inArray(renderJobs.id, part))),
      // The audio is gone: the cache must not answer a render of this text with it any more.
      ...chunks(gone).map((part) => db.delete(audioObjects).where(inArray(audioObjects.key, part))),
    ];
    try {
      for (const part of chunks(writes, 50)) await db.batch(part as [(typeof part)[0], ...typeof part]);
      report.rows_nulled = ids.length;
    } catch (err) {
      report.errors.push(`nulling job references: ${err instanceof Error ? err.message : String(err)}`);
    }
    return Response.json(report);
  },
});
