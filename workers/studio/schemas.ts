import * as v from "valibot";
import { named } from "../core/schema-registry";
import { Email, PublisherParams } from "../kernel/fields";
import { LanguageField, speaks } from "../kernel/language";
import { VOICES } from "../kernel/voice-catalogue";
import { MEMBER_ROLES } from "../db/index";
import type { MemberRow } from "./members";

/** Schemas of the studio's API (docs/publishers.md): members, settings, review, the lexicon preview. */

export const MemberRoleField = v.pipe(
  v.picklist(MEMBER_ROLES),
  v.description("editor: sees, releases, rejects, re-renders and edits the lexicon and settings; viewer: sees."),
);

export const MemberBody = named("MemberBody", v.object({ email: Email, role: MemberRoleField }));

export const MemberView = named(
  "MemberView",
  v.object({
    publisher: v.string(),
    email: v.pipe(v.string(), v.description("The address that signs in at /studio/sign-in.")),
    role: MemberRoleField,
    created_at: v.pipe(v.string(), v.description("ISO 8601.")),
  }),
);

export const MembersView = named("MembersView", v.object({ publisher: v.string(), members: v.array(MemberView) }));

/** A member row as the API shows it. */
export function memberView(row: MemberRow): v.InferOutput<typeof MemberView> {
  return { publisher: row.publisher, email: row.email, role: row.role, created_at: row.createdAt.toISOString() };
}

export const MemberParams = v.object({ ...PublisherParams.entries, email: Email });

export const ArticleParams = v.object({
  ...PublisherParams.entries,
  slug: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("The article's slug.")),
});

/** A voice of the catalogue that speaks each language it is set for. */
const DefaultVoices = v.pipe(
  v.record(LanguageField, v.nullable(v.pipe(v.string(), v.maxLength(100)))),
  v.check((voices) => Object.keys(voices).length <= 200, "default_voices names at most 200 languages"),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const [language, voice] of Object.entries(dataset.value)) {
      if (voice === null || VOICES.some((o) => o.id === voice && speaks(o, language))) continue;
      const known = VOICES.some((o) => o.id === voice);
      addIssue({
        message: known
          ? `voice ${voice} does not speak ${language} (GET /v1/voices?language=${language})`
          : `voice ${voice} is not in the catalogue (GET /v1/voices)`,
      });
    }
  }),
  v.description(
    "Language tag -> voice id: the voice that speaks a narration of that language when it asks for none, tried before the catalogue's best (which stands in when no engine of it is available: the language never changes). The voice must speak the language (GET /v1/voices?language=). Names only the languages it changes; null removes one. A setting for de serves de-AT too; one for de-AT serves only de-AT.",
  ),
);

export const SettingsBody = named(
  "PublisherSettingsBody",
  v.object({
    review_before_release: v.pipe(
      v.optional(v.boolean()),
      v.description(
        "While true, a finished narration waits in awaiting_review and reaches no listener until released. Off by default. Turning it off releases nothing already waiting.",
      ),
    ),
    default_voices: v.optional(DefaultVoices),
  }),
);

export const SettingsView = named(
  "PublisherSettings",
  v.object({
    publisher: v.string(),
    review_before_release: v.pipe(v.boolean(), v.description("Whether finished narrations wait for an editor.")),
    default_voices: v.pipe(v.record(v.string(), v.string()), v.description("Language tag -> the publisher's default voice for it.")),
  }),
);

export const RejectBody = named(
  "RejectBody",
  v.object({
    note: v.pipe(v.string(), v.trim(), v.minLength(1, "note must not be empty"), v.maxLength(2000), v.description("Why: what to fix before the next render.")),
  }),
);

export const ReviewView = named(
  "ReviewView",
  v.object({
    slug: v.string(),
    job_id: v.string(),
    state: v.pipe(v.picklist(["done", "rejected"]), v.description("done: released to listeners; rejected: kept out.")),
    note: v.pipe(v.nullable(v.string()), v.description("The rejection's note.")),
  }),
);
