import { config } from "../core/config";
import { ApiError } from "../core/errors";
import { unknownVoice } from "./jobs-service";
import type { Listener } from "../kernel/listener-tokens";
import { priceOf, VOICES } from "../kernel/voice-catalogue";

/**
 * What render-now may spend of the operator's money for one listener (issue 29, item 5). A listener
 * costs nothing to create, so a per-listener cap alone bounds nothing: a listener also has a daily
 * budget that grows with the account's age (counted by their RenderGate), each address an hourly one
 * (core/rate-limit.ts, `renders`), and a listener who does not pay renders only in the article's own
 * voice or a voice of the free engine.
 */

/** Renders a listener may start in any 24 hours on the day they subscribed. */
export const FIRST_DAY_RENDERS = 5;
/** Renders a day the budget grows by for each whole day of the account's age. */
export const RENDERS_GAINED_PER_DAY = 5;
/** The largest daily budget; a paying listener (plan plus or pro) has it from the first day. */
export const MAX_RENDERS_PER_DAY = 50;

const DAY_MS = 24 * 3_600_000;

/** A paying listener: their plan covers the voices and renders that cost the operator money. */
function pays(listener: Pick<Listener, "plan">): boolean {
  return listener.plan !== "free";
}

/** How many renders `listener` may start in any 24 hours, by the account's age at `now`. */
export function dailyRenderBudget(listener: Pick<Listener, "plan" | "createdAt">, now = Date.now()): number {
  if (pays(listener)) return MAX_RENDERS_PER_DAY;
  const days = Math.max(0, Math.floor((now - listener.createdAt.getTime()) / DAY_MS));
  return Math.min(MAX_RENDERS_PER_DAY, FIRST_DAY_RENDERS + RENDERS_GAINED_PER_DAY * days);
}

/**
 * A slot is a lease: long enough for a render with its Queue retries, short enough that a
 * render which never reports back frees its slot.
 */
export const RENDER_SLOT_LEASE_MS = 30 * 60_000;

/** Voices the free engine speaks (eSpeak NG in the render Worker): no provider bills for them. */
export const FREE_VOICES: readonly string[] = [...new Set(VOICES.filter((o) => priceOf(o) === 0).map((o) => o.id))];

/**
 * Refuses a voice render-now may not use for `listener`: an unknown voice (422), or, for a listener
 * who does not pay, one that is neither the article's own (which the publisher's pre-render already
 * chose to pay for) nor a voice of the free engine (403). No voice means the article's own.
 */
export function checkRenderVoice(listener: Pick<Listener, "plan">, articleVoice: string | null, voice: string | undefined): void {
  if (voice === undefined || voice === articleVoice) return;
  if (!VOICES.some((o) => o.id === voice)) throw unknownVoice();
  if (!pays(listener) && !FREE_VOICES.includes(voice)) {
    throw new ApiError(
      "forbidden",
      `voice ${voice} costs money to render: use the article's own voice, a free voice (${FREE_VOICES.join(", ")}) or a plus or pro plan`,
    );
  }
}

/**
 * What an agent's token spends to start a render for the listener who granted it (get_audio_url with
 * articles:read, issue 40 item 7): the same as render-now, a voice the listener's plan allows
 * (checkRenderVoice) and one of their render slots, counted against their daily budget, in the same
 * RenderGate; the job carries the listener, so the slot is freed when it ends. 429 with Retry-After
 * when the in-flight cap or the daily budget is spent.
 */
export async function takeRenderSlot(env: Pick<Env, "RENDER_GATE">, listener: Pick<Listener, "id" | "plan" | "createdAt">, jobId: string): Promise<void> {
  const budget = dailyRenderBudget(listener);
  const cap = config(env).MAX_IN_FLIGHT_RENDERS_PER_LISTENER;
  const slot = await env.RENDER_GATE.getByName(String(listener.id)).acquire(jobId, cap, RENDER_SLOT_LEASE_MS, { perDay: budget });
  if (slot.ok) return;
  const why = slot.reason === "daily" ? `this listener's ${budget} renders of the last 24 hours are spent` : "too many renders in flight for this listener";
  throw new ApiError("rate_limited", why, { "Retry-After": String("retryAfter" in slot ? slot.retryAfter : 1) });
}
