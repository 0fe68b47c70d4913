import * as v from "valibot";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { savePreferences } from "../save-preferences";
import { TOKEN_NOT_FOUND, TokenParams } from "../../kernel/fields";
import { canonicalVertical } from "../../kernel/verticals";

const PreferredVerticalRequest = named(
  "PreferredVerticalRequest",
  v.object({
    vertical: v.pipe(
      v.nullable(v.pipe(v.string(), v.maxLength(80))),
      v.description("A catalog slug or alias (canonicalised, e.g. parenting is young_moms); null clears the pin."),
    ),
  }),
);

const PreferredVerticalResponse = named("PreferredVerticalResponse", v.object({ preferred_vertical: v.nullable(v.string()) }));

export const putPreferredVertical = route({
  method: "PUT",
  path: "/v1/listeners/:token/preferences/vertical",
  tag: "listeners",
  summary: "Pin one vertical, or clear the pin with null",
  auth: "listener_token",
  params: TokenParams,
  body: PreferredVerticalRequest,
  responses: {
    200: { description: "The pinned vertical", schema: PreferredVerticalResponse },
    400: { description: "The slug is outside the catalog and its aliases (docs/rules.md 7)" },
    404: TOKEN_NOT_FOUND,
  },
  async handle({ listener, env, body }) {
    const slug = body.vertical === null ? null : canonicalVertical(body.vertical);
    if (body.vertical !== null && slug === null) {
      throw new ApiError("bad_request", `unknown vertical ${JSON.stringify(body.vertical)}; see GET /v1/listeners/verticals`);
    }
    await savePreferences(env, listener, { preferredVertical: slug });
    return Response.json({ preferred_vertical: slug });
  },
});
