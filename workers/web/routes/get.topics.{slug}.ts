import * as v from "valibot";
import { page } from "../page-route";
import { topicPage } from "../topic-page";

const TopicPath = v.object({ slug: v.pipe(v.string(), v.description("The topic: a listener vertical, or an alias of one.")) });

/** GET {WEB_URL}/topics/{slug}?page=N: a topic's newest and trending articles and its podcast feed. */
export const getTopicPage = page({
  method: "GET",
  path: "/topics/:slug",
  summary: "A topic's page",
  auth: "none",
  params: TopicPath,
  handle: ({ env, params, url }) => topicPage(env, params.slug, url.searchParams.get("page")),
});
