import { studioPage } from "../layout";
import { settingsPage } from "../pages";
import { settingsOf } from "../settings";

/** GET {WEB_URL}/studio/{publisher}/settings: review before release. */
export const getStudioSettings = studioPage({
  method: "GET",
  path: "/studio/:publisher/settings",
  summary: "A publisher's settings",
  handle: async ({ env, studio }) => settingsPage(env, studio, await settingsOf(env, studio.publisher)),
});
