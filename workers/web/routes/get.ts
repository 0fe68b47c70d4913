import { homePage } from "../home";
import { page } from "../page-route";

/** GET {WEB_URL}/: search, what is trending, and the topics with their feeds. */
export const getHome = page({
  method: "GET",
  path: "/",
  summary: "The home page",
  auth: "none",
  handle: ({ env }) => homePage(env),
});
