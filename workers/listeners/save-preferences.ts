import { eq, sql } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { database, listeners } from "../db";
import { nowMs } from "../db/tables/columns";
import type { Listener } from "../kernel/listener-tokens";

/** The preferences a listener changes themselves (PATCH /v1/listeners/{token}, the listener's web pages). */
export type PreferenceChanges = Partial<
  Pick<typeof listeners.$inferInsert, "verticals" | "preferredVertical" | "timezone" | "walletAddress" | "intakeListenerEmail" | "active">
>;

/** Writes `changes` (already validated) in one update and returns the listener after it; nothing to change reads it back as is. */
export async function savePreferences(env: Pick<Env, "DB">, listener: Listener, changes: PreferenceChanges): Promise<Listener> {
  if (Object.keys(changes).length === 0) return listener;
  const address = changes.intakeListenerEmail;
  // A new intake address is unproven until its mailbox confirms it (listeners/intake-address.ts). Decided
  // in the update itself (SET reads the row as it was), so a racing change cannot keep a stale proof.
  const proof =
    address === undefined
      ? {}
      : { intakeEmailConfirmedAt: sql`case when ${listeners.intakeListenerEmail} is ${address} then ${listeners.intakeEmailConfirmedAt} end` };
  const [updated] = await database(env)
    .update(listeners)
    .set({ ...changes, ...proof, updatedAt: nowMs })
    .where(eq(listeners.id, listener.id))
    .returning()
    .catch((err: unknown) => {
      // The unique index decides, so two changes racing for one intake address cannot both win.
      if (err instanceof Error && /UNIQUE constraint failed: listeners\.intake_listener_email/.test(`${err.message} ${String(err.cause)}`)) {
        throw new ApiError("conflict", "this intake e-mail belongs to another listener");
      }
      throw err;
    });
  if (!updated) throw new ApiError("not_found", "no listener with this token");
  return updated;
}
