import { webUrl } from "../core/config";
import { ApiError } from "../core/errors";
import { readBodyBytes } from "../core/validate";

/**
 * The one fetcher for addresses a caller chose (an OAuth client's metadata document, a listener's link):
 * http(s) only, public hosts only (this machine too in development), every redirect checked again and
 * counted, the body bounded in bytes as it streams and the whole exchange in time, the content type
 * checked. A refusal is a FetchRefused whose message a person can read.
 *
 * Where the address check holds: a Worker has no DNS API, so a host is judged by its name. IP literals,
 * loopback names and names public DNS never answers are refused before anything is sent. On Cloudflare,
 * a Worker's fetch cannot reach a private network whatever a public name resolves to; on a self-hosted
 * workerd it can, so a self-hosted deployment that fetches links must run behind an egress proxy or
 * firewall that drops private destinations (docs/security.md "Fetching what a caller names").
 */

export type RefusalReason = "scheme" | "address" | "redirect" | "status" | "type" | "too_large" | "timeout" | "network";

export class FetchRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export interface FetchLimits {
  /** The Accept header sent. */
  accept: string;
  /** Media types taken (lower case, without parameters); undefined takes any. */
  types?: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  /** Redirects followed, each checked as the first address was; 0 refuses any. */
  maxRedirects: number;
  /** What is fetched, in the refusals' words: "the document", "the page". */
  noun: string;
}

export interface Fetched {
  /** The address that answered, after redirects. */
  url: URL;
  headers: Headers;
  /** The media type, lower case, without parameters. */
  mediaType: string;
  bytes: Uint8Array;
}

/** A loopback host: 127.0.0.0/8, ::1, localhost and names under .localhost (RFC 6761 §6.3). */
export function isLoopback(host: string): boolean {
  return host === "[::1]" || host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Hosts never fetched outside development: IP literals (a public site has a name; a literal is how a
 * private range is named), this machine, and names that public DNS never answers (single labels, .local
 * mDNS, .internal, .home.arpa, .test, .invalid, .example: RFC 6761, RFC 6762, RFC 8375).
 */
export function isPrivateHost(host: string): boolean {
  if (host.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(host)) return true;
  const name = host.replace(/\.$/, "");
  if (!name.includes(".") || isLoopback(name)) return true;
  return [".local", ".internal", ".home.arpa", ".test", ".invalid", ".example", ".lan", ".intranet", ".corp"].some((tld) => name.endsWith(tld));
}

/** Development: the service itself runs on this machine (WEB_URL on a loopback host), and so may what it fetches. */
export function inDevelopment(env: object): boolean {
  return isLoopback(new URL(webUrl(env)).hostname);
}

/** Why `url` may not be fetched, or null when it may. */
function refusalOf(env: object, url: URL, noun: string): FetchRefused | null {
  const local = url.protocol === "http:" && isLoopback(url.hostname) && inDevelopment(env);
  if (url.protocol !== "https:" && url.protocol !== "http:") return new FetchRefused("scheme", `${noun} must be at an http or https address`);
  if (url.username || url.password) return new FetchRefused("address", `${noun}'s address must not carry a user name or password`);
  if (!local && isPrivateHost(url.hostname)) return new FetchRefused("address", `${url.host} is not a public host`);
  return null;
}

/** The statuses that carry a Location to follow (RFC 9110 §15.4); 300 and 304 do not. */
export const isRedirect = (status: number) => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/** Fetches `url` within `limits` (see above); throws FetchRefused. */
export async function guardedFetch(env: object, url: URL, limits: FetchLimits): Promise<Fetched> {
  const { noun } = limits;
  const timedOut = () => new FetchRefused("timeout", `${noun} did not arrive within ${limits.timeoutMs / 1000} s`);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let at = url;
  for (let redirects = 0; ; redirects++) {
    const refusal = refusalOf(env, at, noun);
    if (refusal) throw refusal;
    let response: Response;
    try {
      response = await fetch(at, { headers: { Accept: limits.accept }, redirect: "manual", signal });
    } catch (err) {
      throw err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")
        ? timedOut()
        : new FetchRefused("network", `${noun} could not be fetched`);
    }
    if (isRedirect(response.status)) {
      await response.body?.cancel();
      const location = response.headers.get("Location");
      if (limits.maxRedirects === 0) throw new FetchRefused("redirect", `${noun}'s address redirects; it must answer itself`);
      if (!location || redirects >= limits.maxRedirects)
        throw new FetchRefused("redirect", `${noun}'s address redirects more than ${limits.maxRedirects} times`);
      at = new URL(location, at);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new FetchRefused("status", `${noun}'s address answered ${response.status}`);
    }
    const mediaType = (response.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
    if (limits.types && !limits.types.includes(mediaType)) {
      await response.body?.cancel();
      throw new FetchRefused("type", `${noun} is ${mediaType || "of no stated type"}, not ${limits.types.join(" or ")}`);
    }
    try {
      return { url: at, headers: response.headers, mediaType, bytes: await readBodyBytes(response, limits.maxBytes) };
    } catch (err) {
      if (err instanceof ApiError && err.code === "payload_too_large") throw new FetchRefused("too_large", `${noun} is larger than ${limits.maxBytes} bytes`);
      // The body's stream fails when the time limit aborts the fetch.
      throw signal.aborted ? timedOut() : new FetchRefused("network", `${noun} could not be read to its end`);
    }
  }
}

/**
 * The text of an HTML or plain-text body: the charset its Content-Type names, else (HTML) the one its
 * first 1024 bytes declare in a meta tag, else UTF-8 (WHATWG Encoding labels; an unknown one is UTF-8).
 */
export function decodeText(fetched: Pick<Fetched, "headers" | "mediaType" | "bytes">): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(fetched.headers.get("Content-Type") ?? "")?.[1];
  const head = fetched.mediaType === "text/html" ? new TextDecoder("latin1").decode(fetched.bytes.subarray(0, 1024)) : "";
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  for (const label of [fromHeader, fromMeta]) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(fetched.bytes);
    } catch {
      // An encoding this runtime does not know: the next candidate.
    }
  }
  return new TextDecoder().decode(fetched.bytes);
}
