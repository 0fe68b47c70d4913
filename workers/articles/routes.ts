import type { Route } from "../core/route";
import { postForward } from "./forward-route";
import { getArticle } from "./get-article";
import { storiesFeed } from "./stories-feed";
import { storiesSearch } from "./stories-search";
import { topicArt } from "./topic-art";

export const articleRoutes: Route[] = [getArticle, postForward, storiesSearch, storiesFeed, topicArt];
