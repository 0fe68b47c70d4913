import { oembed, OEMBED_PATH } from "../oembed";
import { page } from "../page-route";

/** GET {WEB_URL}/oembed?url=&format=json: the player of a public article for a CMS (oEmbed §2). */
export const getOembed = page({
  method: "GET",
  path: OEMBED_PATH,
  summary: "The oEmbed answer for an article page or embed URL",
  auth: "none",
  handle: ({ request, env }) => oembed(request, env),
});
