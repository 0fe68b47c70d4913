import type { ProviderId } from "../../kernel/voice-catalogue";

/** How long a failing provider sits out before it is tried again. */
export const COOL_DOWN_MS = 60_000;

/**
 * Provider health, kept per isolate: each render Worker isolate learns on its own that a provider is
 * failing. That costs at most one failed request per isolate and cool-down, and needs no storage on
 * the render path (a shared record would add a round trip to every render).
 */
const unhealthyUntil = new Map<ProviderId, number>();

export function markUnhealthy(provider: ProviderId, now = Date.now()): void {
  unhealthyUntil.set(provider, now + COOL_DOWN_MS);
}

export function isHealthy(provider: ProviderId, now = Date.now()): boolean {
  return (unhealthyUntil.get(provider) ?? 0) <= now;
}

/** When a provider sitting out its cool-down is tried again; null when it is healthy. */
export function coolingUntil(provider: ProviderId, now = Date.now()): Date | null {
  const until = unhealthyUntil.get(provider) ?? 0;
  return until > now ? new Date(until) : null;
}

/** Forgets every mark (tests start from a healthy set). */
export function resetHealth(): void {
  unhealthyUntil.clear();
}
