import { embedPage } from "../embed";
import { page, SlugPath } from "../page-route";

/** GET {WEB_URL}/embed/article/{slug}: the embeddable player, which any site may frame. */
export const getEmbed = page({
  method: "GET",
  path: "/embed/article/:slug",
  summary: "The embeddable player of an article",
  auth: "none",
  params: SlugPath,
  handle: ({ env, params }) => embedPage(env, params.slug),
});
