import { embedPage } from "../embed";
import { embedErrors } from "../page-errors";
import { page, SlugPath } from "../page-route";

/** GET {WEB_URL}/embed/article/{slug}: the embeddable player, which any site may frame. */
export const getEmbed = page({
  method: "GET",
  path: "/embed/article/:slug",
  summary: "The embeddable player of an article",
  auth: "none",
  params: SlugPath,
  // Framable like the player: a refusal shows inside the publisher's frame, never as a broken frame.
  renderErrors: embedErrors,
  handle: ({ env, params }) => embedPage(env, params.slug),
});
