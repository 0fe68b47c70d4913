import { mayActFor } from "../../core/auth";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { PublisherParams } from "../../kernel/fields";
import { updateSettings } from "../settings";
import { SettingsBody, SettingsView } from "../schemas";

export const patchPublisherSettings = route({
  method: "PATCH",
  path: "/v1/publishers/:publisher/settings",
  tag: "publishers",
  summary: "Change a publisher's settings (review before release)",
  description:
    "Requires that publisher's API key (Authorization: Bearer npk_...) or the operator's; another publisher's settings are a 404. " +
    "An editor changes the same in the studio ({WEB_URL}/studio/{publisher}).",
  auth: "api_key",
  params: PublisherParams,
  body: SettingsBody,
  responses: { 200: { description: "All the settings after the change", schema: SettingsView } },
  async handle({ env, caller, params, body }) {
    if (!mayActFor(caller, params.publisher)) throw new ApiError("not_found", "no settings of that publisher for this key");
    const settings = await updateSettings(env, params.publisher, body);
    return Response.json({ publisher: params.publisher, ...settings }, { headers: { "Cache-Control": "no-store" } });
  },
});
