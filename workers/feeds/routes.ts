import type { Route } from "../core/route";
import { postCreatorClaim } from "./claim-creator";
import { getCreatorFeed } from "./get-creator-feed";
import { getDeclassifiedFeed } from "./get-declassified-feed";
import { getPrivateFeed } from "./get-private-feed";
import { getPrivateTranscript } from "./get-private-transcript";
import { getServiceFeed } from "./get-service-feed";
import { getTokenFeed } from "./get-token-feed";
import { getTopicFeed } from "./get-topic-feed";
import { getTranscript } from "./get-transcript";

/**
 * Feed routes in match order: the fixed service paths, then the service-{slug} wildcard, then the
 * paths with their own prefix, and last the bare /v1/podcasts/{token}.xml, which would otherwise
 * take every service*.xml as a token.
 */
export const feedRoutes: Route[] = [
  getServiceFeed,
  getDeclassifiedFeed,
  getTopicFeed,
  getCreatorFeed,
  getPrivateFeed,
  getPrivateTranscript,
  getTranscript,
  postCreatorClaim,
  getTokenFeed,
];
