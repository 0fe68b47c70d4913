import { seeOther } from "../../web/page";
import { studioPage } from "../layout";
import { publisherPath } from "../paths";
import { updateSettings } from "../settings";

/** POST {WEB_URL}/studio/{publisher}/settings: an editor turns review before release on or off. */
export const postStudioSettings = studioPage({
  method: "POST",
  path: "/studio/:publisher/settings",
  summary: "Changes a publisher's settings",
  role: "editor",
  async handle({ env, studio, field }) {
    await updateSettings(env, studio.publisher, { review_before_release: field("review_before_release") === "on" });
    return seeOther(publisherPath(studio.publisher, "/settings"));
  },
});
