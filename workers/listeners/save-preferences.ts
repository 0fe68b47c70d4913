import { eq, sql } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { database, listeners } from "../db";
import { nowMs } from "../db/tables/columns";
import { releaseLapsedClaim } from "./intake-address";
import type { Listener } from "../kernel/listener-tokens";

/** The preferences a listener changes themselves (PATCH /v1/listeners/{token}, the listener's web pages). */
export type PreferenceChanges = Partial<
  Pick<typeof listeners.$inferInsert, "verticals" | "preferredVertical" | "timezone" | "walletAddress" | "intakeListenerEmail" | "active">
>;

/**
 * Writes `changes` (already validated) in one update and returns the listener after it; nothing to
 * change reads it back as is. An intake address another listener holds is 409, unless that claim has
 * lapsed (listeners/intake-address.ts): then it is released and the write tried once more.
 */
export async function savePreferences(env: Pick<Env, "DB">, listener: Listener, changes: PreferenceChanges): Promise<Listener> {
  if (Object.keys(changes).length === 0) return listener;
  const address = changes.intakeListenerEmail;
  // A new intake address is unproven until its mailbox confirms it (listeners/intake-address.ts), and
  // claimed from now on. Decided in the update itself (SET reads the row as it was), so a racing change cannot keep a stale proof.
  const unchanged = sql`${listeners.intakeListenerEmail} is ${address}`;
  const proof =
    address === undefined
      ? {}
      : {
          intakeEmailConfirmedAt: sql`case when ${unchanged} then ${listeners.intakeEmailConfirmedAt} end`,
          intakeEmailClaimedAt: sql`case when ${unchanged} then ${listeners.intakeEmailClaimedAt} else ${address === null ? null : nowMs} end`,
        };
  const write = () =>
    database(env)
      .update(listeners)
      .set({ ...changes, ...proof, updatedAt: nowMs })
      .where(eq(listeners.id, listener.id))
      .returning();
  let rows: Listener[];
  try {
    rows = await write();
  } catch (err) {
    // The unique index decides, so two changes racing for one intake address cannot both win.
    if (!isIntakeConflict(err) || !address || !(await releaseLapsedClaim(env, address))) throw intakeConflict(err);
    rows = await write().catch((again: unknown) => {
      throw intakeConflict(again);
    });
  }
  const [updated] = rows;
  if (!updated) throw new ApiError("not_found", "no listener with this token");
  return updated;
}

function isIntakeConflict(err: unknown): boolean {
  return err instanceof Error && /UNIQUE constraint failed: listeners\.intake_listener_email/.test(`${err.message} ${String(err.cause)}`);
}

/** The 409 of an intake address held by another listener; any other failure as it was. */
function intakeConflict(err: unknown): unknown {
  return isIntakeConflict(err) ? new ApiError("conflict", "this intake e-mail belongs to another listener") : err;
}
