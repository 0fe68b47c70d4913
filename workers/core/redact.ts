/**
 * Credentials travel in some paths and queries (a listener's account token, a private feed token, an
 * unsubscribe link, a magic-link secret): 32 or more base64url characters from randomToken() or an
 * HMAC. Such a run is replaced wherever it appears in a logged line. Audio keys and content hashes
 * (lowercase hex) and slugs (lowercase words) are not secrets and stay readable; a random token of
 * 43 base64url characters has an upper-case letter in all but about 1 in 10^10 cases.
 * Plain TypeScript without imports: `npm start` (Node) uses it on wrangler's output too.
 */
const CREDENTIAL_RUN = /[A-Za-z0-9_-]{32,}/g;

export const REDACTED = "[redacted]";

/** `text` with every credential-like run replaced by REDACTED. */
export function redactCredentials(text: string): string {
  return text.replace(CREDENTIAL_RUN, (run) => (/[A-Z]/.test(run) ? REDACTED : run));
}
