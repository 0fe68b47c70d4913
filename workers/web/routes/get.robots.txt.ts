import { robots } from "../sitemap";
import { page } from "../page-route";

/** GET {WEB_URL}/robots.txt: what crawlers may index, and where the sitemap is. */
export const getRobots = page({
  method: "GET",
  path: "/robots.txt",
  summary: "The robots.txt of the web front-end",
  auth: "none",
  handle: ({ env }) => robots(env),
});
