import { DurableObject } from "cloudflare:workers";

/** The outcome of asking for a render slot. */
export type GateDecision = { ok: true } | { ok: false; retryAfter: number };

/**
 * The render-now in-flight cap of one listener (README "Rules" 3): one object per listener, whose
 * calls the runtime serialises, so concurrent requests can never take more slots than the cap.
 * Slots are leases with an expiry: a render that crashes before it releases
 * its slot frees it when the lease runs out, and an alarm clears expired leases.
 */
export class RenderGate extends DurableObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS slots (job_id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)");
  }

  /** Takes a slot for `jobId` for `leaseMs`, unless `cap` live slots are taken; re-acquiring a held slot renews it. */
  async acquire(jobId: string, cap: number, leaseMs: number): Promise<GateDecision> {
    const now = Date.now();
    this.expire(now);
    const held = this.ctx.storage.sql.exec("SELECT 1 FROM slots WHERE job_id = ?", jobId).toArray().length > 0;
    if (!held) {
      const live = this.ctx.storage.sql.exec<{ n: number; first: number | null }>(
        "SELECT count(*) AS n, min(expires_at) AS first FROM slots",
      ).one();
      if (live.n >= cap) {
        // The earliest a slot is certain to be free is when the oldest lease runs out.
        const retryAfter = Math.max(1, Math.ceil(((live.first ?? now) - now) / 1000));
        return { ok: false, retryAfter };
      }
    }
    this.ctx.storage.sql.exec(
      "INSERT INTO slots (job_id, expires_at) VALUES (?, ?) ON CONFLICT (job_id) DO UPDATE SET expires_at = excluded.expires_at",
      jobId,
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
  }

  /** Keeps one alarm at the earliest lease expiry, none when no slot is held. */
  private async schedule(): Promise<void> {
    const first = this.ctx.storage.sql.exec<{ first: number | null }>("SELECT min(expires_at) AS first FROM slots").one().first;
    if (first === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(first);
  }
}
