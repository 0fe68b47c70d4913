import { eq } from "drizzle-orm";
import { ApiError } from "../core/errors";
import { database, listeners } from "../db";
import type { Listener } from "../kernel/listener-tokens";
import type { Caller } from "./caller";

/**
 * The listener a tool acts for: the one behind an OAuth grant, or the one a wallet holds. A caller
 * with neither gets an error that names both ways in (docs/rules.md 5).
 */
export async function actingListener(env: Pick<Env, "DB">, caller: Caller, tool: string): Promise<Listener> {
  if (caller.listenerId === null) {
    throw new ApiError(
      "unauthorized",
      `${tool} acts for a listener: call it with an OAuth bearer token the listener granted (scope subscriptions:write), ` +
        "or from the wallet that holds an x402 subscription. This call carries neither.",
    );
  }
  const listener = await database(env).query.listeners.findFirst({ where: eq(listeners.id, caller.listenerId) });
  // `active` gates only the daily digest mail (docs/api-conventions.md "Inactive listeners"); wallet-held listeners are inactive.
  if (!listener) throw new ApiError("not_found", "the listener this call acts for no longer exists");
  return listener;
}
