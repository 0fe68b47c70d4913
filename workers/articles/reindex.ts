import * as v from "valibot";
import { named } from "../core/schema-registry";

export const ReindexStatus = named(
  "ReindexStatus",
  v.object({
    running: v.pipe(v.nullable(v.boolean()), v.description("null when this worker never started a reindex.")),
    elapsed_sec: v.pipe(v.nullable(v.number()), v.description("Seconds so far while running, the total once done; null if never started.")),
    ok: v.pipe(v.nullable(v.boolean()), v.description("Outcome of the last finished run; null while running or never started.")),
  }),
);

type Status = v.InferOutput<typeof ReindexStatus>;

/** The latest run on this isolate (docs/rules.md "Rules" 2: status is per serving worker). */
let latest: { startedAt: number; finishedAt: number | null; ok: boolean | null } | null = null;

/** Status of the latest reindex started by this isolate. */
export function reindexStatus(now = Date.now()): Status {
  if (!latest) return { running: null, elapsed_sec: null, ok: null };
  const end = latest.finishedAt ?? now;
  return { running: latest.finishedAt === null, elapsed_sec: Math.round((end - latest.startedAt) / 100) / 10, ok: latest.ok };
}

/**
 * Starts a rebuild of the FTS5 indexes (words and trigrams, migrations/0028_search_languages.sql) from the articles table and returns at once; `waitUntil`
 * keeps the isolate alive until it ends. FTS5's 'rebuild' replaces an index in one atomic
 * statement and the batch runs both in one transaction, so no search sees a half-built index (about 2 s per 100,000 articles, during which D1
 * queues other queries). A run already going is not doubled.
 */
export function startReindex(env: Pick<Env, "DB">, ctx: Pick<ExecutionContext, "waitUntil">): { started: boolean } {
  if (latest && latest.finishedAt === null) return { started: false };
  const run = { startedAt: Date.now(), finishedAt: null as number | null, ok: null as boolean | null };
  latest = run;
  ctx.waitUntil(
    env.DB.batch([
      env.DB.prepare("INSERT INTO articles_fts(articles_fts) VALUES ('rebuild')"),
      env.DB.prepare("INSERT INTO articles_trigram(articles_trigram) VALUES ('rebuild')"),
    ])
      .then(
        () => (run.ok = true),
        (err: unknown) => {
          console.error(`search reindex failed: ${err instanceof Error ? err.name : typeof err}`);
          run.ok = false;
        },
      )
      .finally(() => (run.finishedAt = Date.now())),
  );
  return { started: true };
}
