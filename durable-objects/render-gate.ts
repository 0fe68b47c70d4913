import { DurableObject } from "cloudflare:workers";

/**
 * The outcome of asking for a render slot: refused because `in_flight` renders fill the cap, or
 * because the renders started in the last 24 hours fill the `daily` budget; or not needed, because
 * job `holder` already holds the slot of the same article (`article_held`).
 */
export type GateDecision =
  | { ok: true }
  | { ok: false; reason: "in_flight" | "daily"; retryAfter: number }
  | { ok: false; reason: "article_held"; holder: string };

/** What else a slot is asked for with. */
export interface SlotRequest {
  /** Renders that may start in any 24 hours; unbounded when absent. */
  perDay?: number;
  /** What the job renders: while one job holds a slot for it, no other job of the listener gets one. */
  article?: string;
}

/** The window of the daily budget. */
const DAY_MS = 24 * 3_600_000;

/**
 * What one listener's render-now may start (docs/rules.md "Rules" 3; issue 29, item 5): at most `cap`
 * renders in flight, and at most a daily budget of renders started in any 24 hours. One object per
 * listener, whose calls the runtime serialises, so concurrent requests can never take more slots
 * than the cap nor start more renders than the budget. Slots are leases with an expiry: a render
 * that crashes before it releases its slot frees it when the lease runs out. Starts are kept for a
 * day in the object's own storage, so an evicted object forgets none. An alarm clears both.
 */
export class RenderGate extends DurableObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS slots (job_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)");
    // Objects created before slots named their article gain the column; their slots name none.
    if (!sql.exec("SELECT 1 FROM pragma_table_info('slots') WHERE name = 'article'").toArray().length) {
      sql.exec("ALTER TABLE slots ADD COLUMN article TEXT");
    }
    sql.exec("CREATE TABLE IF NOT EXISTS starts (job_id TEXT PRIMARY KEY, started_at INTEGER NOT NULL)");
  }

  /**
   * Takes a slot for `jobId` for `leaseMs` and counts it as a start, unless `cap` live slots are
   * taken or `perDay` renders started in the last 24 hours, or another job holds the slot of the
   * same `article`; re-acquiring a held slot renews it and counts nothing.
   */
  async acquire(jobId: string, cap: number, leaseMs: number, { perDay = Number.POSITIVE_INFINITY, article }: SlotRequest = {}): Promise<GateDecision> {
    const now = Date.now();
    this.expire(now);
    const held = this.ctx.storage.sql.exec("SELECT 1 FROM slots WHERE job_id = ?", jobId).toArray().length > 0;
    if (!held) {
      if (article !== undefined) {
        const holder = this.ctx.storage.sql.exec<{ job_id: string }>("SELECT job_id FROM slots WHERE article = ?", article).toArray()[0];
        if (holder) return { ok: false, reason: "article_held", holder: holder.job_id };
      }
      const live = this.ctx.storage.sql.exec<{ n: number; first: number | null }>("SELECT count(*) AS n, min(expires_at) AS first FROM slots").one();
      if (live.n >= cap) {
        // The earliest a slot is certain to be free is when the oldest lease runs out.
        return { ok: false, reason: "in_flight", retryAfter: secondsUntil(live.first ?? now, now) };
      }
      const day = this.ctx.storage.sql.exec<{ n: number; first: number | null }>("SELECT count(*) AS n, min(started_at) AS first FROM starts").one();
      if (day.n >= perDay) {
        // A start leaves the budget 24 hours after it was counted.
        return { ok: false, reason: "daily", retryAfter: secondsUntil((day.first ?? now) + DAY_MS, now) };
      }
      this.ctx.storage.sql.exec("INSERT OR REPLACE INTO starts (job_id, started_at) VALUES (?, ?)", jobId, now);
    }
    this.ctx.storage.sql.exec(
      "INSERT INTO slots (job_id, article, expires_at) VALUES (?, ?, ?) ON CONFLICT (job_id) DO UPDATE SET expires_at = excluded.expires_at",
      jobId,
      article ?? null,
      now + leaseMs,
    );
    await this.schedule();
    return { ok: true };
  }

  /** Frees the slot of `jobId`; releasing a slot that is not held does nothing (consumers retry). */
  async release(jobId: string): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM slots WHERE job_id = ?", jobId);
    await this.schedule();
  }

  /** Frees the slot of a job that was never started and gives its start back to the daily budget. */
  async withdraw(jobId: string): Promise<void> {
    this.ctx.storage.sql.exec("DELETE FROM slots WHERE job_id = ?", jobId);
    this.ctx.storage.sql.exec("DELETE FROM starts WHERE job_id = ?", jobId);
    await this.schedule();
  }

  /** Renders started in the last 24 hours; for diagnostics and tests. */
  async startedToday(): Promise<number> {
    this.expire(Date.now());
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM starts").one().n;
  }

  /** The number of live slots; for diagnostics and tests. */
  async inFlight(): Promise<number> {
    this.expire(Date.now());
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM slots").one().n;
  }

  override async alarm(): Promise<void> {
    this.expire(Date.now());
    await this.schedule();
  }

  private expire(now: number): void {
    this.ctx.storage.sql.exec("DELETE FROM slots WHERE expires_at <= ?", now);
    this.ctx.storage.sql.exec("DELETE FROM starts WHERE started_at <= ?", now - DAY_MS);
  }

  /** Keeps one alarm at the earliest lease expiry or start leaving the day, none when nothing is held. */
  private async schedule(): Promise<void> {
    const first = this.ctx.storage.sql
      .exec<{ first: number | null }>(
        "SELECT min(at) AS first FROM (SELECT min(expires_at) AS at FROM slots UNION ALL SELECT min(started_at) + ? FROM starts)",
        DAY_MS,
      )
      .one().first;
    if (first === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(first);
  }
}

/** Whole seconds from `now` until `at`, at least one. */
function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}
