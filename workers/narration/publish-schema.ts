import * as v from "valibot";
import { named } from "../core/schema-registry";
import { HOSTS } from "../kernel/hosts";
import { LanguageField, LanguageFields } from "../kernel/language";
import { MAX_ARTICLE_CHARS, VoiceField } from "./fields";
import { MAX_NARRATED_CHARS } from "../kernel/render-contract";
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from "../kernel/slug";
import { articleUrlField } from "../kernel/web-url";

/** Visibilities a publisher may set; listener_private belongs to articles a listener forwards, never to publishers. */
export const PUBLISHER_VISIBILITIES = ["public", "publisher_only"] as const;

/** The body of POST /v1/webhook/publish. */
export const PublishRequest = named(
  "PublishRequest",
  v.object({
    slug: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(MAX_SLUG_LENGTH),
        v.regex(SLUG_PATTERN, "must be kebab-case: lower-case letters, digits and single dashes"),
        v.description("Article slug; when omitted it is derived from the title (kebab-case, made unique with -2, -3, ...)."),
      ),
    ),
    title: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(300), v.description("Headline; narrated before the body.")),
    publisher: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.description("Publisher name.")),
    vertical: v.pipe(
      v.string(),
      v.maxLength(80),
      v.regex(/^[a-z0-9_-]+$/, "must be a vertical slug"),
      v.description("Topic slug (tech, finance, science, news, young_moms, ...)."),
    ),
    body_text: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1),
      v.maxLength(MAX_ARTICLE_CHARS),
      v.description(
        `Full plain text of the article. Narration takes at most ${MAX_NARRATED_CHARS} characters of title + ". " + body (about an hour, rendered in segments); a longer article is stored, but its render job fails with "too_long".`,
      ),
    ),
    summary: v.optional(v.pipe(v.string(), v.maxLength(2_000), v.description("Short summary.")), ""),
    url: v.optional(articleUrlField("Canonical URL on the publisher's site (http or https).")),
    published_at: v.optional(v.pipe(v.string(), v.isoTimestamp(), v.description("Publication time (ISO 8601); a new article's created_at. Defaults to now."))),
    voice: v.optional(VoiceField),
    language: v.optional(LanguageField),
    visibility: v.optional(
      v.pipe(
        v.picklist(PUBLISHER_VISIBILITIES),
        v.description("public (default) or publisher_only (a thin noindex stub); listener_private is reserved for listener-forwarded articles."),
      ),
      "public",
    ),
    host: v.optional(v.pipe(v.picklist(HOSTS), v.description("Host persona whose feed carries the article."))),
    declassified: v.optional(v.pipe(v.boolean(), v.description("Listed in the declassified-cases feed.")), false),
    creator: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(MAX_SLUG_LENGTH),
        v.regex(SLUG_PATTERN, "must be a creator slug"),
        v.description("Slug of a creator tenant (POST /v1/admin/creators); its feed /v1/podcasts/creator/{slug}.xml carries the article."),
      ),
    ),
  }),
);

export type PublishRequest = v.InferOutput<typeof PublishRequest>;

/** The answer of POST /v1/webhook/publish. */
export const PublishResponse = named(
  "PublishResponse",
  v.object({
    slug: v.pipe(v.string(), v.description("The article's slug (derived when the request had none).")),
    job_id: v.pipe(v.nullable(v.string()), v.description("The pre-render job, or null when the text and voice are unchanged and their render did not fail.")),
    created: v.pipe(v.boolean(), v.description("True when the article is new, false when an existing one was updated.")),
    rendered: v.pipe(v.boolean(), v.description("True when audio of the current text and voice already exists.")),
    ...LanguageFields,
  }),
);

export type PublishResponse = v.InferOutput<typeof PublishResponse>;
