import { digest } from "./digest";
import { get_article } from "./get_article";
import { get_audio_url } from "./get_audio_url";
import { list_subscriptions } from "./list_subscriptions";
import { search_articles } from "./search_articles";
import { subscribe_topic } from "./subscribe_topic";
import type { Tool } from "./tool";

/** The six agent tools of docs/rules.md 4, in its order: every surface and manifest lists exactly these. */
export const TOOLS = [search_articles, get_article, get_audio_url, subscribe_topic, list_subscriptions, digest] as const satisfies readonly Tool[];

export { digest, get_article, get_audio_url, list_subscriptions, search_articles, subscribe_topic };
export type { Tool } from "./tool";
