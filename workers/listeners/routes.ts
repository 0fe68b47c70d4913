import type { Route } from "../core/route";
import { listOutbox } from "../mail/outbox-list";
import { alphaSignup } from "./alpha-signup";
import { getFlo } from "./flo-get";
import { getFloNow } from "./flo-now";
import { putFlo } from "./flo-put";
import { deleteSubscription } from "./listener-delete";
import { getListenerFeed } from "./listener-feed";
import { exchangeListenerMagicLink } from "./magic-link-exchange";
import { requestListenerMagicLink } from "./magic-link-request";
import { paywallClickThrough } from "./paywall-click";
import { recordPlay } from "./plays";
import { getPreferences } from "./preferences-get";
import { patchPreferences } from "./preferences-patch";
import { putPreferredVertical } from "./preferred-vertical";
import { getPrivateFeed } from "./private-feed";
import { getQueue } from "./queue";
import { rotateToken } from "./rotate";
import { subscribeListener } from "./subscribe";
import { getUnsubscribe, postUnsubscribe } from "./unsubscribe";
import { listVerticals } from "./verticals-catalog";

/** Listener routes. The fixed paths (subscribe, verticals) precede /v1/listeners/:token, which would match them. */
export const listenerRoutes: Route[] = [
  alphaSignup,
  subscribeListener,
  listVerticals,
  getPreferences,
  patchPreferences,
  deleteSubscription,
  rotateToken,
  putPreferredVertical,
  getQueue,
  getListenerFeed,
  getPrivateFeed,
  paywallClickThrough,
  getFlo,
  putFlo,
  getFloNow,
  requestListenerMagicLink,
  exchangeListenerMagicLink,
  recordPlay,
  getUnsubscribe,
  postUnsubscribe,
  listOutbox,
];
