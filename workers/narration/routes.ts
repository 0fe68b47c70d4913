import type { Route } from "../core/route";
import { getArticleAudio } from "./article-audio";
import { audioRoutes } from "./audio";
import { postJob } from "./enqueue-job";
import { getJob } from "./get-job";
import { postPublishWebhook } from "./publish";
import { postRender } from "./render";
import { postRenderNow } from "./render-now";
import { getVoices } from "./voices";

export const narrationRoutes: Route[] = [
  postRender,
  postJob,
  getJob,
  postPublishWebhook,
  postRenderNow,
  getArticleAudio,
  ...audioRoutes,
  getVoices,
];
