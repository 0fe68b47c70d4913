/**
 * The app a download came from, named from its user agent (docs/publishers.md "Listening numbers"), as
 * podcast hosts report it after the Open Podcast Analytics Working Group's user-agent list
 * (github.com/opawg/user-agents-v2): the first pattern that matches names it. Apps come before the
 * platforms and browsers they embed (Apple Podcasts' agent names Darwin; Overcast's says iOS), and a
 * browser comes last, since every browser's agent names the others too.
 */
const PODCAST_APPS: [RegExp, string][] = [
  // The app's own agent, named in the device's language, or the system player it hands downloads to.
  [/^(Podcasts|Balados|Podcasti|Podkaster|Podcasty|Подкасты)\/|^AppleCoreMedia\/|\bwatchOS\//, "Apple Podcasts"],
  [/^Spotify\/|\bSpotify\b/, "Spotify"],
  [/^Overcast\//, "Overcast"],
  [/Pocket ?Casts/i, "Pocket Casts"],
  [/^Castro\b/, "Castro"],
  [/AntennaPod\//, "AntennaPod"],
  [/PodcastAddict\//, "Podcast Addict"],
  [/^Podcast Republic/, "Podcast Republic"],
  [/CastBox/i, "Castbox"],
  [/^Podverse\//, "Podverse"],
  [/^Fountain\//, "Fountain"],
  [/^Podbean\//, "Podbean"],
  [/^Deezer\//, "Deezer"],
  [/^Player FM/, "Player FM"],
  [/iHeartRadio\//, "iHeartRadio"],
  [/YouTube|com\.google\.android\.youtube/, "YouTube Music"],
  [/AlexaMediaPlayer\/|Echo\/|Alexa/, "Amazon Alexa"],
  [/^Audible|AmazonMusic/, "Amazon Music"],
  [/Google-Speech-Actions|GoogleChirp|CrKey\//, "Google Assistant"],
  [/SiriusXM|Stitcher/, "Stitcher"],
];

/** Players, tools and browsers: named, but left to the bot list (isbot) to judge. */
const OTHER_AGENTS: [RegExp, string][] = [
  [/^VLC\/|LibVLC\//, "VLC"],
  [/^Lavf\/|ffmpeg/i, "FFmpeg"],
  [/^curl\//, "curl"],
  [/\bEdg\//, "Edge"],
  [/\bFirefox\//, "Firefox"],
  [/\bChrome\/|\bCriOS\//, "Chrome"],
  [/\bSafari\//, "Safari"],
];

function match(list: [RegExp, string][], userAgent: string): string | null {
  for (const [pattern, name] of list) if (pattern.test(userAgent)) return name;
  return null;
}

/**
 * The podcast app named by `userAgent`, or null. A podcast app's download is a listener's even when its
 * agent carries a URL, which bot lists take for a crawler's mark (Overcast's "+http://overcast.fm/").
 */
export function podcastApp(userAgent: string): string | null {
  return match(PODCAST_APPS, userAgent);
}

/** The app named by `userAgent` (a podcast app, a player, a tool or a browser), or "Other". */
export function appName(userAgent: string): string {
  return podcastApp(userAgent) ?? match(OTHER_AGENTS, userAgent) ?? "Other";
}
