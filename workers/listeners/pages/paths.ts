/**
 * Paths of the listener's pages under {WEB_URL}/listen. None carries a credential: the pages know the
 * listener by the session cookie, so no token can leak through Referer or history (docs/listeners.md "Listener pages").
 */
export const LISTEN_PATHS = {
  home: "/listen",
  subscribe: "/listen/subscribe",
  verticals: "/listen/verticals",
  digest: "/listen/digest",
  queue: "/listen/queue",
  links: "/listen/links",
  share: "/listen/share",
  flo: "/listen/flo",
  floOrder: "/listen/flo/order",
  floMove: "/listen/flo/move",
  account: "/listen/account",
  rotate: "/listen/rotate",
  remove: "/listen/delete",
} as const;
