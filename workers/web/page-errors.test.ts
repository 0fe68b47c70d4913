import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { ApiError, ValidationError } from "../core/errors";
import { withRequestId } from "../core/request-id";
import { embedErrors, pageErrors } from "./page-errors";

/** What a person sees when a page fails (core/route.ts Route.renderErrors): a page, never the API's JSON. */

const WEB = "https://web.test";

function fail(err: unknown, path = "/listen?tab=feeds", init: RequestInit = {}): Response {
  const request = new Request(`${WEB}${path}`, init);
  return pageErrors(err, request, env, new URL(request.url));
}

async function titleOf(res: Response): Promise<string> {
  return /<h1>([^<]*)<\/h1>/.exec(await res.text())?.[1] ?? "";
}

describe("pageErrors", () => {
  it.each([
    ["rate_limited", "Please wait", 429],
    ["not_found", "Not found", 404],
    ["payload_too_large", "Too large", 413],
    ["validation_failed", "Not valid", 422],
    ["forbidden", "Not allowed", 403],
    ["conflict", "Something went wrong", 409],
  ] as const)("an ApiError %s is a page titled %j with its status, message and headers", async (code, title, status) => {
    const res = fail(new ApiError(code, "because <of> this", { "Retry-After": "7" }));
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const html = await res.clone().text();
    expect(html).toContain(`<title>${title}</title>`);
    expect(await titleOf(res)).toBe(title);
    expect(html).toContain("<p>because &lt;of&gt; this</p>");
  });

  it("a page's address that fails validation is the page's own 404; a form's fields are 422", async () => {
    const path = fail(new ValidationError([{ loc: ["path", "slug"], msg: "too long", type: "max_length" }]));
    expect(path.status).toBe(404);
    expect(await titleOf(path.clone())).toBe("Not found");
    expect(await path.text()).toContain("<p>There is no page at this address.</p>");
    const mixed = fail(
      new ValidationError([
        { loc: ["path", "slug"], msg: "too long", type: "max_length" },
        { loc: ["body", "email"], msg: "not an address", type: "email" },
      ]),
    );
    expect(mixed.status).toBe(422);
    expect(await titleOf(mixed)).toBe("Not valid");
  });

  it("an unexpected failure is a 500 without its detail, logged with the request's id, which the page names", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const request = new Request(`${WEB}/listen`, { headers: { "cf-ray": "ray-<1>" } });
      const res = withRequestId(request, () => pageErrors(new Error("secret detail"), request, env, new URL(request.url)));
      expect(res.status).toBe(500);
      expect(res.headers.get("x-request-id")).toBe("ray-<1>");
      const html = await res.text();
      expect(html).toContain("<h1>Something went wrong</h1><p>Try again in a moment.</p>");
      expect(html).toContain('<p class="note">Request id: ray-&lt;1&gt;</p>');
      expect(html).not.toContain("secret detail");
      expect(log).toHaveBeenCalledOnce();
      expect(String(log.mock.calls[0][0])).toContain("req=ray-<1>");
    } finally {
      log.mockRestore();
    }
  });

  it("an ApiError keeps its own headers beside the request's id, and outside a request names none", async () => {
    const request = new Request(`${WEB}/listen`, { headers: { "cf-ray": "ray-2" } });
    const res = withRequestId(request, () => pageErrors(new ApiError("rate_limited", "slow down", { "Retry-After": "3" }), request, env, new URL(request.url)));
    expect(res.headers.get("retry-after")).toBe("3");
    expect(res.headers.get("x-request-id")).toBe("ray-2");
    const outside = fail(new ApiError("not_found", "gone"));
    expect(outside.headers.get("x-request-id")).toBeNull();
    expect(await outside.text()).not.toContain("Request id");
  });

  it.each(["GET", "HEAD"])("without a session, a %s goes to sign in and comes back to the page asked for", (method) => {
    const res = fail(new ApiError("unauthorized", "sign in"), "/listen?tab=feeds", { method });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/sign-in?${new URLSearchParams({ next: "/listen?tab=feeds" })}`);
  });

  it("without a session, a form goes to sign in and comes back to the page it was sent from, else home", () => {
    const form = (headers: Record<string, string>) => fail(new ApiError("unauthorized", "sign in"), "/listen/feeds", { method: "POST", headers });
    expect(form({ Referer: `${WEB}/listen?tab=feeds` }).headers.get("location")).toBe(`/sign-in?${new URLSearchParams({ next: "/listen?tab=feeds" })}`);
    expect(form({}).headers.get("location")).toBe("/sign-in?next=%2F");
    expect(form({ Referer: "not a url" }).headers.get("location")).toBe("/sign-in?next=%2F");
    // Another site's page is no place to return to.
    expect(form({ Referer: "https://evil.example//evil.example/x" }).headers.get("location")).toBe("/sign-in?next=%2F");
  });
});

describe("embedErrors", () => {
  it("is a page any site may frame, kept out of search, in the embed's own look", async () => {
    const request = new Request(`${WEB}/embed/some-article`);
    const res = embedErrors(new ApiError("rate_limited", "too <many>", { "Retry-After": "9" }), request, env);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("9");
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    const html = await res.text();
    expect(html).toContain('<body class="embed"><main class="embed-main"><h1>Please wait</h1><p>too &lt;many&gt;</p></main>');
  });

  it("names the request's id inside the frame too", async () => {
    const request = new Request(`${WEB}/embed/x`, { headers: { "cf-ray": "ray-3" } });
    const res = withRequestId(request, () => embedErrors(new ApiError("not_found", "no such article"), request, env));
    expect(res.headers.get("x-request-id")).toBe("ray-3");
    expect(await res.text()).toContain('<h1>Not found</h1><p>no such article</p><p class="note">Request id: ray-3</p></main>');
  });
});
