import * as v from "valibot";
import { named } from "../core/schema-registry";
import { Email, PublisherParams } from "../kernel/fields";
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

export const SettingsBody = named(
  "PublisherSettingsBody",
  v.object({
    review_before_release: v.pipe(
      v.optional(v.boolean()),
      v.description(
        "While true, a finished narration waits in awaiting_review and reaches no listener until released. Off by default. Turning it off releases nothing already waiting.",
      ),
    ),
  }),
);

export const SettingsView = named(
  "PublisherSettings",
  v.object({ publisher: v.string(), review_before_release: v.pipe(v.boolean(), v.description("Whether finished narrations wait for an editor.")) }),
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
