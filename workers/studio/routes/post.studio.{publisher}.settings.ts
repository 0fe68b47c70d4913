import * as v from "valibot";
import { ValidationError } from "../../core/errors";
import { seeOther } from "../../web/page";
import { studioPage } from "../layout";
import { publisherPath } from "../paths";
import { SettingsBody } from "../schemas";
import { updateSettings } from "../settings";

/**
 * POST {WEB_URL}/studio/{publisher}/settings: an editor turns review before release on or off, or
 * (part=default_voice) sets or removes the default voice of one language, checked as the API checks it.
 */
export const postStudioSettings = studioPage({
  method: "POST",
  path: "/studio/:publisher/settings",
  summary: "Changes a publisher's settings",
  role: "editor",
  async handle({ env, studio, field }) {
    if (field("part") === "default_voice") {
      const change = v.safeParse(SettingsBody, { default_voices: { [field("language")]: field("voice") || null } });
      if (!change.success)
        throw new ValidationError(
          change.issues.map((i) => ({ loc: ["body", ...(i.path?.map((p) => String(p.key)) ?? [])], msg: i.message, type: "settings" })),
        );
      await updateSettings(env, studio.publisher, change.output);
    } else await updateSettings(env, studio.publisher, { review_before_release: field("review_before_release") === "on" });
    return seeOther(publisherPath(studio.publisher, "/settings"));
  },
});
