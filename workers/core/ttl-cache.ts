import * as v from "valibot";
import { named } from "./schema-registry";

/** Live settings of a cache, read from configuration on every use so a change applies at once. */
export interface CacheSettings {
  ttlSeconds: number;
  capacity: number;
}

export const CacheStats = named(
  "CacheStats",
  v.object({
    hits: v.pipe(v.number(), v.description("Lookups answered from the cache since the isolate started.")),
    misses: v.pipe(v.number(), v.description("Lookups that found no live entry (bypassed lookups are not counted).")),
    entries: v.pipe(v.number(), v.description("Entries held now, expired ones included until they are touched or evicted.")),
    evictions: v.pipe(v.number(), v.description("Entries dropped to stay within capacity.")),
    ttl_seconds: v.pipe(v.number(), v.description("Live TTL; 0 means the cache is disabled.")),
    capacity: v.pipe(v.number(), v.description("Most entries held at once.")),
  }),
);

/**
 * A per-isolate cache with a TTL and least-recently-used eviction (docs/rules.md "Rules" 2: the stats are
 * per worker process). A Map keeps insertion order, so re-inserting on a hit makes the first key
 * the least recently used one.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  /** The live entry for `key`, counting a hit or a miss; undefined when TTL is 0. */
  get(key: string, settings: CacheSettings, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expires > now && settings.ttlSeconds > 0) {
      this.hits += 1;
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    }
    if (entry) this.entries.delete(key);
    this.misses += 1;
    return undefined;
  }

  /** Stores `value` unless the cache is disabled, evicting the least recently used beyond capacity. */
  set(key: string, value: V, settings: CacheSettings, now = Date.now()): void {
    if (settings.ttlSeconds <= 0 || settings.capacity <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expires: now + settings.ttlSeconds * 1000 });
    while (this.entries.size > settings.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.evictions += 1;
    }
  }

  /** Drops `key`; with `value`, only while the entry still holds it (a newer one stays). */
  drop(key: string, value?: V): void {
    if (value === undefined || this.entries.get(key)?.value === value) this.entries.delete(key);
  }

  /** Drops every entry (the test setup, which starts each test from empty storage). */
  clear(): void {
    this.entries.clear();
  }

  /** The counters of docs/rules.md "Rules" 2 "Search-cache stats". */
  stats(settings: CacheSettings): v.InferOutput<typeof CacheStats> {
    return {
      hits: this.hits,
      misses: this.misses,
      entries: this.entries.size,
      evictions: this.evictions,
      ttl_seconds: settings.ttlSeconds,
      capacity: settings.capacity,
    };
  }
}
