import * as v from "valibot";
import { named } from "../core/schema-registry";
import type { publisherKeys } from "../db/index";

export const PublisherKeyView = named(
  "PublisherKey",
  v.object({
    id: v.number(),
    publisher: v.string(),
    prefix: v.pipe(v.string(), v.description("The key's public start (npk_...): names it in lists and logs.")),
    created_at: v.string(),
    revoked_at: v.nullable(v.string()),
  }),
);

/** A key as an admin sees it: never the key itself. */
export function publisherKeyView(row: typeof publisherKeys.$inferSelect): v.InferOutput<typeof PublisherKeyView> {
  return {
    id: row.id,
    publisher: row.publisher,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}
