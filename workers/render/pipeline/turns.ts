/**
 * Turns at this isolate's CPU for the renders it runs at once (docs/narration.md "Priorities and
 * fairness"). An isolate runs one thing at a time, and the offline engine, the join, loudness and
 * the encoders hold it for tens of milliseconds each: without turns, renders interleave at every
 * await, so a listener's stream would share the CPU with a backlog of publishes paragraph by
 * paragraph. A render takes a seat when it starts and a turn for each CPU-heavy step (a piece the
 * offline engine voices, a paragraph encoded). A turn goes to the best rank among the seated renders,
 * so a render waits while one of a better rank is seated at all: a stream runs alone, and its I/O
 * waits are its own. Among renders of the same rank, the turn goes to the owner (publisher) served
 * least recently, so one publisher's batch never holds back another's article for more than a step;
 * among one owner's renders, to the render served least recently, so a listener's new stream takes
 * its first step before a long one already playing takes its next (a new render has had no turn).
 *
 * Waiters look again every WAIT_MS rather than await another request's promise: workerd cancels a
 * request that waits on another request's I/O (docs/testing.md).
 */
export const RANKS = { stream: 0, high: 1, normal: 2 } as const;
export type Rank = keyof typeof RANKS;

/** A render's place at the table: its rank and whose it is. */
export interface Seat {
  readonly rank: number;
  readonly owner: string;
}

const WAIT_MS = 2;
const seated = new Set<Seat>();
const asking = new Set<Seat>();
/** When each owner, and each seated render, last had a turn (a counter, not a clock). */
const served = new Map<string, number>();
const seatServed = new Map<Seat, number>();
let turnsGiven = 0;
let holder: Seat | null = null;

/** Seats a render; `leave` it when the render ends, whatever the outcome. */
export function seat(rank: Rank, owner: string): Seat {
  const s = { rank: RANKS[rank], owner };
  seated.add(s);
  return s;
}

export function leave(s: Seat): void {
  seated.delete(s);
  asking.delete(s);
  seatServed.delete(s);
  if (holder === s) holder = null;
}

/** Whether `s` is the one the next turn goes to. */
function isNext(s: Seat): boolean {
  for (const other of seated) if (other.rank < s.rank) return false;
  for (const other of asking) {
    if (other === s || other.rank > s.rank) continue;
    const [theirs, mine] = [served.get(other.owner) ?? 0, served.get(s.owner) ?? 0];
    if (theirs < mine) return false;
    if (other.owner === s.owner && (seatServed.get(other) ?? 0) < (seatServed.get(s) ?? 0)) return false;
  }
  return true;
}

/** Runs `work` in a turn of `s` (at once without a seat: a render outside the scheduler). */
export async function inTurn<T>(s: Seat | undefined, work: () => T | Promise<T>): Promise<T> {
  if (!s) return work();
  asking.add(s);
  while (holder !== null || !isNext(s)) await scheduler.wait(WAIT_MS);
  asking.delete(s);
  holder = s;
  served.set(s.owner, ++turnsGiven);
  seatServed.set(s, turnsGiven);
  try {
    return await work();
  } finally {
    if (holder === s) holder = null;
  }
}
