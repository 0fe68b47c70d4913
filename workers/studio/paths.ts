/** The studio's fixed paths; a publisher's pages live below /studio/{publisher} (publisherPath). */
export const STUDIO_PATHS = {
  home: "/studio",
  signIn: "/studio/sign-in",
  confirm: "/studio/sign-in/confirm",
  signOut: "/studio/sign-out",
} as const;

/** The path of a publisher's studio page: `rest` is "" (its articles), "/lexicon", "/settings", ... */
export function publisherPath(publisher: string, rest = ""): string {
  return `${STUDIO_PATHS.home}/${encodeURIComponent(publisher)}${rest}`;
}

/** The path of one article's studio page, or of an action on it (`rest`: "/release", ...). */
export function articlePath(publisher: string, slug: string, rest = ""): string {
  return publisherPath(publisher, `/articles/${encodeURIComponent(slug)}${rest}`);
}
