/**
 * One-tap subscribe links for the common podcast apps (docs/listeners.md "Listener pages"). Each app registers
 * its own URL scheme and takes the feed URL in its own form. They are custom schemes on purpose:
 * the operating system hands them straight to the app, so the private feed URL inside never goes to
 * a third-party web page (the apps' https "deep link" pages would receive it in their URL).
 */
export interface PodcastApp {
  name: string;
  href: string;
}

/** The feed URL without its scheme, as the apps that take "scheme://host/path" want it. */
function bare(feedUrl: string): string {
  return feedUrl.replace(/^https?:\/\//, "");
}

export function podcastApps(feedUrl: string): PodcastApp[] {
  return [
    // iOS and macOS hand podcast:// to Apple Podcasts, which follows the feed by URL.
    { name: "Apple Podcasts", href: `podcast://${bare(feedUrl)}` },
    // Overcast's x-callback-url "add" action takes the whole URL as a query parameter.
    { name: "Overcast", href: `overcast://x-callback-url/add?url=${encodeURIComponent(feedUrl)}` },
    { name: "Pocket Casts", href: `pktc://subscribe/${bare(feedUrl)}` },
    { name: "Castro", href: `castro://subscribe/${bare(feedUrl)}` },
    { name: "AntennaPod", href: `antennapod-subscribe://${bare(feedUrl)}` },
    // The generic feed scheme (feed:, after the old "feed URI scheme" draft), which podcast apps and
    // feed readers on every platform register; any app can still take the plain URL from the copy box.
    { name: "Other app", href: `feed://${bare(feedUrl)}` },
  ];
}
