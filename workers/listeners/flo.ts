import { and, eq, inArray, sql } from "drizzle-orm";
import * as v from "valibot";
import { articles, floOverrides, type Database } from "../db";
import { articlesWithStatus, ofListener, type ListenerArticle } from "./listener-articles";
import type { Listener } from "../kernel/listener-tokens";
import { listedFor } from "../kernel/visibility";

/**
 * The flo: the listener's day in time blocks (docs/rules.md "Rules" 2, Flo). Blocks and their defaults live
 * here in code; a listener's flo_overrides rows replace a block's verticals, tone or manual_order.
 */

export const TONES = ["brief", "light", "deep", "calm"] as const;
export type Tone = (typeof TONES)[number];

export interface FloBlock {
  id: string;
  label: string;
  /** Local hours [start_hour, end_hour), wrapping past midnight when end < start. */
  start_hour: number;
  end_hour: number;
  verticals: string[];
  tone: Tone;
  /** Article slugs in the listener's drag-drop order; they lead the block's queue. */
  manual_order: string[];
  overridden: boolean;
}

const DEFAULT_BLOCKS: readonly Omit<FloBlock, "manual_order" | "overridden">[] = [
  { id: "morning", label: "Morning briefing", start_hour: 5, end_hour: 9, verticals: ["news", "finance", "tech"], tone: "brief" },
  { id: "focus", label: "Late morning", start_hour: 9, end_hour: 12, verticals: ["tech", "science", "finance"], tone: "deep" },
  { id: "midday", label: "Midday break", start_hour: 12, end_hour: 14, verticals: ["culture", "sports", "media"], tone: "light" },
  { id: "afternoon", label: "Afternoon", start_hour: 14, end_hour: 18, verticals: ["finance", "tech", "health"], tone: "brief" },
  { id: "evening", label: "Evening", start_hour: 18, end_hour: 22, verticals: ["culture", "science", "health", "young_moms"], tone: "deep" },
  { id: "night", label: "Night", start_hour: 22, end_hour: 5, verticals: ["science", "culture"], tone: "calm" },
];

export const BLOCK_IDS = DEFAULT_BLOCKS.map((b) => b.id) as [string, ...string[]];

/** Listen-length ranges in seconds that suit each tone; a tone match adds to an article's score. */
const TONE_SECONDS: Record<Tone, [number, number]> = {
  brief: [0, 300],
  light: [120, 600],
  deep: [600, Infinity],
  calm: [300, Infinity],
};

/** The listener's flo: the default blocks with their overrides applied. */
export async function loadFlo(db: Database, listenerId: number): Promise<FloBlock[]> {
  const rows = await db.select().from(floOverrides).where(eq(floOverrides.listenerId, listenerId));
  const byId = new Map(rows.map((r) => [r.blockId, r]));
  return DEFAULT_BLOCKS.map((block) => {
    const o = byId.get(block.id);
    return {
      ...block,
      verticals: o?.verticals ?? [...block.verticals],
      tone: (o?.tone as Tone | null) ?? block.tone,
      manual_order: o?.manualOrder ?? [],
      overridden: o !== undefined,
    };
  });
}

/** The local hour (0-23) at `at` in IANA zone `timeZone` (Intl resolves DST). */
export function localHour(at: Date, timeZone: string): number {
  const hour = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" }).format(at);
  return Number(hour) % 24;
}

/** The block covering `hour`; the defaults tile the whole day, so one always does. */
export function activeBlock(blocks: FloBlock[], hour: number): FloBlock {
  const covers = (b: FloBlock) => (b.start_hour <= b.end_hour ? hour >= b.start_hour && hour < b.end_hour : hour >= b.start_hour || hour < b.end_hour);
  return blocks.find(covers) ?? blocks[0];
}

/** The full flo and its active block, as GET and PUT answer it. */
export async function floView(db: Database, listener: { id: number; timezone: string }) {
  const blocks = await loadFlo(db, listener.id);
  const active = activeBlock(blocks, localHour(new Date(), listener.timezone));
  return { timezone: listener.timezone, active_block: active, blocks };
}

/** A tone match counts half a first-vertical match: the block's topics matter more than its pace. */
const TONE_WEIGHT = 0.5;

/** Vertical score (1 for the block's first vertical, falling with its position) plus TONE_WEIGHT for a tone match. */
function score(block: FloBlock, a: Pick<ListenerArticle, "vertical" | "listenSeconds">): number {
  const i = block.verticals.indexOf(a.vertical);
  const vertical = i < 0 ? 0 : (block.verticals.length - i) / block.verticals.length;
  const [min, max] = TONE_SECONDS[block.tone];
  const tone = a.listenSeconds !== null && a.listenSeconds >= min && a.listenSeconds <= max ? TONE_WEIGHT : 0;
  return vertical + tone;
}

/** docs/rules.md "Rules" 4: manual_order first, then vertical and tone score, then recency. */
export function orderForBlock<T extends Pick<ListenerArticle, "slug" | "vertical" | "listenSeconds" | "createdAt">>(block: FloBlock, items: T[]): T[] {
  const manual = new Map(block.manual_order.map((slug, i) => [slug, i]));
  const rank = (a: T) => manual.get(a.slug) ?? Infinity;
  return [...items].sort((a, b) => rank(a) - rank(b) || score(block, b) - score(block, a) || b.createdAt.getTime() - a.createdAt.getTime());
}

/** How many recent candidates are ranked; a block's queue is drawn from these plus its manual_order. */
const CANDIDATES = 200;

/**
 * The first `limit` articles of `block` for the listener (flo/now, the flo page), in queue order. The
 * manually ordered slugs are fetched on their own, so a pinned article stays in the queue however old.
 */
export async function blockQueue(db: Database, listener: Listener, block: FloBlock, limit: number): Promise<ListenerArticle[]> {
  const [recent, pinned] = await Promise.all([
    articlesWithStatus(db, listener.id, ofListener(listener, block.verticals), CANDIDATES),
    block.manual_order.length === 0
      ? []
      : articlesWithStatus(db, listener.id, and(inArray(articles.slug, block.manual_order), listedFor(listener.id))!, block.manual_order.length),
  ]);
  const unique = new Map([...pinned, ...recent].map((a) => [a.slug, a]));
  return orderForBlock(block, [...unique.values()]).slice(0, limit);
}

/** A change to one block: only the fields present change. */
export interface FloBlockChange {
  id: string;
  verticals?: string[];
  tone?: Tone;
  manual_order?: string[];
}

/** Writes the changes of one or more blocks in one batch (all or nothing). */
export async function saveFloBlocks(db: Database, listenerId: number, changes: [FloBlockChange, ...FloBlockChange[]]): Promise<void> {
  const now = new Date();
  const writes = changes.map((b) => {
    const set = {
      ...(b.verticals !== undefined && { verticals: b.verticals }),
      ...(b.tone !== undefined && { tone: b.tone }),
      ...(b.manual_order !== undefined && { manualOrder: b.manual_order }),
    };
    return db
      .insert(floOverrides)
      .values({ listenerId, blockId: b.id, ...set, updatedAt: now })
      .onConflictDoUpdate({ target: [floOverrides.listenerId, floOverrides.blockId], set: { ...set, updatedAt: sql`excluded.updated_at` } });
  });
  await db.batch(writes as [(typeof writes)[number], ...typeof writes]);
}

/** The JSON shape of a block on the wire. */
export const FloBlockView = v.object({
  id: v.string(),
  label: v.string(),
  start_hour: v.pipe(v.number(), v.description("Local hour the block starts (inclusive).")),
  end_hour: v.pipe(v.number(), v.description("Local hour the block ends (exclusive); below start_hour it wraps past midnight.")),
  verticals: v.array(v.string()),
  tone: v.picklist(TONES),
  manual_order: v.array(v.string()),
  overridden: v.pipe(v.boolean(), v.description("True when the listener changed this block.")),
});
