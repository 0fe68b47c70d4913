import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeText, FetchRefused, guardedFetch, isLoopback, isPrivateHost, isRedirect, type FetchLimits } from "./guarded-fetch";

/**
 * The rules of the one fetcher for addresses a caller chose, each stated on its own (issue 46: its
 * mutants survived the link and metadata suites, which reach it through their own refusals). The
 * outside is a spy on fetch, at the network boundary; the tests' WEB_URL is not this machine, so
 * the refusals of a deployment hold.
 */

afterEach(() => vi.restoreAllMocks());

const LIMITS: FetchLimits = { accept: "text/html", maxBytes: 1024, timeoutMs: 1500, maxRedirects: 2, noun: "the page" };

/** Answers every outside request with `answer`; returns the URLs asked for. */
function serve(answer: (url: string, init?: RequestInit) => Promise<Response>) {
  const asked: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    asked.push(url);
    return answer(url, init);
  });
  return asked;
}

/** The refusal guardedFetch throws for `url`, or a failure when it fetches. */
async function refusal(url: string, limits: Partial<FetchLimits> = {}): Promise<FetchRefused> {
  const err = await guardedFetch(env, new URL(url), { ...LIMITS, ...limits }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FetchRefused);
  return err as FetchRefused;
}

describe("hosts", () => {
  it("this machine is loopback by every name: ::1, localhost, a name under .localhost, all of 127/8", () => {
    for (const host of ["[::1]", "localhost", "app.localhost", "127.0.0.1", "127.1.2.3"]) expect(isLoopback(host), host).toBe(true);
    // Only the whole name: 127 and four numbers, no more, no less.
    for (const host of ["10.127.0.0.1", "127.0.0.1.example.com", "localhost.example.com", "example.com", "[::2]"]) expect(isLoopback(host), host).toBe(false);
  });

  it("a public name is public, with or without its trailing dot; a name is judged by its name even when it starts with numbers", () => {
    for (const host of ["example.com", "news.example.org", "example.com.", "93.184.216.34.sslip.io"]) expect(isPrivateHost(host), host).toBe(false);
  });

  it("private: IP literals, single labels, this machine, and the names public DNS never answers", () => {
    for (const host of [
      "10.0.0.7",
      "8.8.8.8",
      "[2001:db8::1]",
      "nas",
      "nas.",
      "localhost.",
      "app.localhost",
      "printer.local",
      "printer.local.",
      "db.internal",
      "router.home.arpa",
      "a.test",
      "x.invalid",
      "www.example",
      "box.lan",
      "wiki.intranet",
      "mail.corp",
    ]) {
      expect(isPrivateHost(host), host).toBe(true);
    }
  });

  it("a redirect is 301, 302, 303, 307 or 308; 300 and 304 carry no Location to follow", () => {
    for (const status of [301, 302, 303, 307, 308]) expect(isRedirect(status), String(status)).toBe(true);
    for (const status of [200, 300, 304, 305, 306, 309]) expect(isRedirect(status), String(status)).toBe(false);
  });
});

describe("refusals before anything is sent, in words a person reads", () => {
  it("an address that is not http or https", async () => {
    const asked = serve(async () => new Response("no"));
    const err = await refusal("ftp://example.com/file.html");
    expect(err).toMatchObject({ reason: "scheme", message: "the page must be at an http or https address" });
    expect(asked).toEqual([]);
  });

  it("an address with a user name, a password, or both", async () => {
    const asked = serve(async () => new Response("no"));
    for (const url of ["https://user@example.com/a", "https://:secret@example.com/a", "https://user:secret@example.com/a"]) {
      expect(await refusal(url), url).toMatchObject({ reason: "address", message: "the page's address must not carry a user name or password" });
    }
    expect(asked).toEqual([]);
  });
});

describe("what goes wrong on the way", () => {
  it("an answer slower than the limit is a timeout, in seconds as the limit says", async () => {
    serve(
      (_url, init) =>
        new Promise((_, reject) => {
          init?.signal?.addEventListener("abort", () => reject(init.signal!.reason));
        }),
    );
    expect(await refusal("https://example.com/slow")).toMatchObject({ reason: "timeout", message: "the page did not arrive within 1.5 s" });
  });

  it("a fetch aborted by name (AbortError) is a timeout too; any other failure is the network's", async () => {
    serve(async () => {
      throw new DOMException("aborted", "AbortError");
    });
    expect(await refusal("https://example.com/a")).toMatchObject({ reason: "timeout" });
    vi.restoreAllMocks();
    serve(async () => {
      throw new TypeError("connection refused");
    });
    expect(await refusal("https://example.com/a")).toMatchObject({ reason: "network", message: "the page could not be fetched" });
    vi.restoreAllMocks();
    serve(async () => {
      throw "not an error";
    });
    expect(await refusal("https://example.com/a")).toMatchObject({ reason: "network" });
  });
});

/** A body that records whether it was cancelled (read to no end). */
function cancellable() {
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new Uint8Array(16));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

describe("redirects, statuses and types", () => {
  it("follows a redirect, relative or not, checking each address again; answers where it ended, its type and its bytes", async () => {
    const asked = serve(async (url) =>
      url.endsWith("/a")
        ? new Response(null, { status: 303, headers: { Location: "/b" } })
        : new Response("<p>hi</p>", { headers: { "Content-Type": "Text/HTML ; charset=utf-8" } }),
    );
    const fetched = await guardedFetch(env, new URL("https://example.com/a"), LIMITS);
    expect(asked).toEqual(["https://example.com/a", "https://example.com/b"]);
    expect(fetched.url.href).toBe("https://example.com/b");
    expect(fetched.mediaType).toBe("text/html");
    expect(new TextDecoder().decode(fetched.bytes)).toBe("<p>hi</p>");
    expect(fetched.headers.get("content-type")).toBe("Text/HTML ; charset=utf-8");
  });

  it("a redirect's body is cancelled, not read; with no redirect allowed, the address must answer itself", async () => {
    const { body, state } = cancellable();
    const asked = serve(async () => new Response(body, { status: 302, headers: { Location: "https://example.org/" } }));
    expect(await refusal("https://example.com/a", { maxRedirects: 0 })).toMatchObject({
      reason: "redirect",
      message: "the page's address redirects; it must answer itself",
    });
    expect(state.cancelled).toBe(true);
    expect(asked).toEqual(["https://example.com/a"]);
  });

  it("one redirect too many, or one with no Location, is refused with the count allowed", async () => {
    serve(async (url) => new Response(null, { status: 301, headers: { Location: `${url}x` } }));
    expect(await refusal("https://example.com/a")).toMatchObject({ reason: "redirect", message: "the page's address redirects more than 2 times" });
    vi.restoreAllMocks();
    const asked = serve(async () => new Response(null, { status: 307 }));
    expect(await refusal("https://example.com/a")).toMatchObject({ reason: "redirect" });
    expect(asked).toHaveLength(1);
  });

  it("an error status is refused with its number, its body cancelled", async () => {
    const { body, state } = cancellable();
    serve(async () => new Response(body, { status: 404 }));
    expect(await refusal("https://example.com/a")).toMatchObject({ reason: "status", message: "the page's address answered 404" });
    expect(state.cancelled).toBe(true);
  });

  it("a type not taken is refused by name, its body cancelled; no type at all says so", async () => {
    const { body, state } = cancellable();
    serve(async () => new Response(body, { headers: { "Content-Type": "image/png" } }));
    const types = ["text/html", "text/plain"];
    expect(await refusal("https://example.com/a", { types })).toMatchObject({ reason: "type", message: "the page is image/png, not text/html or text/plain" });
    expect(state.cancelled).toBe(true);
    vi.restoreAllMocks();
    serve(async () => new Response(new Uint8Array([1]), { headers: {} }));
    expect(await refusal("https://example.com/a", { types })).toMatchObject({ message: "the page is of no stated type, not text/html or text/plain" });
  });

  it("a body over the limit is too large, in bytes; a body cut off is the network's, or the time limit's once it passed", async () => {
    serve(async () => new Response(new Uint8Array(1025)));
    expect(await refusal("https://example.com/a")).toMatchObject({ reason: "too_large", message: "the page is larger than 1024 bytes" });
    expect((await guardedFetch(env, new URL("https://example.com/a"), { ...LIMITS, maxBytes: 1025 })).bytes).toHaveLength(1025);
    vi.restoreAllMocks();
    const broken = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(8));
          controller.error(new TypeError("connection reset"));
        },
      });
    serve(async () => new Response(broken()));
    expect(await refusal("https://example.com/a")).toMatchObject({ reason: "network", message: "the page could not be read to its end" });
    vi.restoreAllMocks();
    // A body that trickles past the time limit.
    serve(async (_url, init) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(8));
          init?.signal?.addEventListener("abort", () => controller.error(init.signal!.reason));
        },
      });
      return new Response(body);
    });
    expect(await refusal("https://example.com/a", { timeoutMs: 200 })).toMatchObject({ reason: "timeout", message: "the page did not arrive within 0.2 s" });
  });

  it("sends the Accept header it is given, and no redirect is followed by the runtime itself", async () => {
    const seen: RequestInit[] = [];
    serve(async (_url, init) => {
      seen.push(init!);
      return new Response("ok");
    });
    await guardedFetch(env, new URL("https://example.com/a"), LIMITS);
    expect(new Headers(seen[0].headers).get("accept")).toBe("text/html");
    expect(seen[0].redirect).toBe("manual");
  });
});

describe("decodeText", () => {
  const bytes = (text: string, ...extra: number[]) => new Uint8Array([...new TextEncoder().encode(text), ...extra]);
  const decoded = (contentType: string, body: Uint8Array, mediaType = contentType.split(";")[0].trim().toLowerCase()) =>
    decodeText({ headers: new Headers({ "Content-Type": contentType }), mediaType, bytes: body });

  it("reads the charset the Content-Type names, before any the page declares, in any case and spacing", () => {
    expect(decoded('text/html; charset="ISO-8859-1"', bytes('<meta charset="utf-8">', 0xe9))).toBe('<meta charset="utf-8">é');
    expect(decoded("text/html; Charset = ISO-8859-1", bytes("", 0xe9))).toBe("é");
  });

  it("else the one an HTML page declares in its first 1024 bytes, and only an HTML page", () => {
    expect(decoded("text/html", bytes('<meta charset="windows-1252">', 0x80))).toBe('<meta charset="windows-1252">€');
    expect(decoded("text/html", bytes("<META http-equiv=Content-Type content='text/html; CHARSET = windows-1252'>", 0x80))).toContain("€");
    expect(decoded("text/html", bytes(`${" ".repeat(1024)}<meta charset="windows-1252">`, 0xc3, 0xa9))).toBe(
      `${" ".repeat(1024)}<meta charset="windows-1252">é`,
    );
    expect(decoded("text/plain", bytes('<meta charset="windows-1252">', 0xc3, 0xa9))).toBe('<meta charset="windows-1252">é');
  });

  it("else UTF-8, which an unknown label falls through to", () => {
    expect(decoded("text/html; charset=no-such-thing", bytes("caf", 0xc3, 0xa9))).toBe("café");
    expect(decoded("text/html", bytes('<meta charset="klingon">caf', 0xc3, 0xa9))).toBe('<meta charset="klingon">café');
  });
});
