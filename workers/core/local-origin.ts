/**
 * Whether a configured address is this machine's: what keeps development-only behaviour (the local
 * x402 facilitator, the mail outbox) off a deployment that faces the public. No imports, so the
 * deploy script can import it under Node through workers/agents/x402/deploy-guard.ts.
 */

/**
 * True when `baseUrl` names this machine or a test: a loopback host (127.0.0.0/8, [::1], localhost and
 * names under .localhost, which RFC 6761 §6.3 reserves for loopback) or a name under .test, which
 * RFC 6761 §6.2 keeps out of the public DNS (the tests run as https://api.test). Any other address,
 * and one that is no URL, may be reached by anyone.
 */
export function isLocalOrigin(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  const name = host.replace(/\.$/, "");
  return ["localhost", "test"].some((tld) => name === tld || name.endsWith(`.${tld}`));
}
