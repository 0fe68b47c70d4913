import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { LANGUAGE_SOURCES } from "../../kernel/language";
import { createdAt } from "./columns";
import { listeners } from "./listeners";

/** How an article is shown to an anonymous viewer (docs/rules.md "Rules" 2, Article visibility). */
export const VISIBILITIES = ["public", "publisher_only", "listener_private"] as const;

export const creators = sqliteTable("creators", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  claimedByEmail: text("claimed_by_email"),
  claimTokenHash: text("claim_token_hash"),
  claimedAt: integer("claimed_at", { mode: "timestamp_ms" }),
  createdAt: createdAt(),
});

export const articles = sqliteTable(
  "articles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    publisher: text("publisher").notNull(),
    vertical: text("vertical").notNull(),
    summary: text("summary").notNull().default(""),
    bodyText: text("body_text").notNull(),
    url: text("url"),
    visibility: text("visibility", { enum: VISIBILITIES }).notNull().default("public"),
    /** The listener who forwarded a listener_private article. */
    ownerListenerId: integer("owner_listener_id").references(() => listeners.id, { onDelete: "set null" }),
    creatorId: integer("creator_id").references(() => creators.id, { onDelete: "set null" }),
    /** Host persona that carries the article in its feed (tech, markets, news, health, sports, comedy). */
    host: text("host"),
    curated: integer("curated", { mode: "boolean" }).notNull().default(false),
    declassified: integer("declassified", { mode: "boolean" }).notNull().default(false),
    voice: text("voice"),
    /** BCP 47 tag of the language the article is narrated in (kernel/language.ts); given by the publisher or detected. */
    language: text("language").notNull().default("en"),
    languageSource: text("language_source", { enum: LANGUAGE_SOURCES }).notNull().default("detected"),
    /** SHA-256 of the narrated text and voice; a re-publish renders only when it changes. */
    contentHash: text("content_hash").notNull(),
    /** Cache key of the audio of the current text, once a render is done. */
    audioKey: text("audio_key"),
    listenSeconds: integer("listen_seconds"),
    publishedAt: integer("published_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
    /** The signed time (x-legacy-signature t) of the last publish delivery applied; an older one is refused. */
    deliverySignedAt: integer("delivery_signed_at", { mode: "timestamp_ms" }),
    /**
     * The MACs of the deliveries applied that were signed in the second of delivery_signed_at, space-separated:
     * a tie is applied once, never replayed over a later one of the same second (issue 40 item 9).
     */
    deliveryMacs: text("delivery_macs").notNull().default(""),
  },
  (t) => [
    index("articles_created_at_idx").on(t.createdAt),
    index("articles_vertical_created_at_idx").on(t.vertical, t.createdAt),
    index("articles_owner_idx").on(t.ownerListenerId),
    index("articles_host_idx").on(t.host, t.createdAt),
    // The audio path looks up which articles an audio key narrates (narration/audio-access.ts).
    index("articles_audio_key_idx").on(t.audioKey),
    // The feeds and search of one language (GET /v1/podcasts/service.xml?language=de).
    index("articles_language_created_at_idx").on(t.language, t.createdAt),
  ],
);
