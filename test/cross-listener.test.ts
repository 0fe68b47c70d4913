import { describe, expect, it } from "vitest";
import { methodsOf } from "../workers/core/route";
import { routes } from "../workers/router";
import { call } from "./support/client";
import { privateArticleOf } from "./support/private-article";

/**
 * Generated from the route table: every route a listener token opens, asked with another listener's
 * token, answers nothing of the owner's. A listener token is the whole credential (SPEC.md part 5), so
 * the attack is a listener who knows an article slug of someone else's archive, or a grant id of theirs.
 */
const readable = routes.filter((r) => r.auth === "listener_token" && methodsOf(r).includes("GET"));

/** A path of `r` for `token`, its other parameters taken from `values`. */
const pathOf = (path: string, token: string, values: Record<string, string> = {}) =>
  path.replace(/:(\w+)/g, (_, name: string) => (name === "token" ? token : (values[name] ?? "some-slug")));

describe("another listener's token opens nothing of the owner's", () => {
  it("covers the listener routes that read", () => {
    expect(readable.length).toBeGreaterThan(5);
  });

  it.each(readable.map((r) => [r.path, r] as const))("GET %s with another listener's token shows none of the owner's private article", async (_, r) => {
    const { owner, other, slug } = await privateArticleOf("lighthouse-keeper", "a".repeat(64));
    const res = await call(pathOf(r.path, other.token));
    const body = await res.text();
    expect(res.status).toBeLessThan(500);
    expect(body).not.toContain(slug);
    expect(body).not.toContain("lighthouse-keeper");
    expect(body).not.toContain(owner.listener.email);
    expect(body).not.toContain(owner.token);
    // The owner's own token does see it where the route lists articles, so the check above can fail.
    if (/\/(feed|queue)$/.test(r.path)) expect(await (await call(pathOf(r.path, owner.token))).text()).toContain(slug);
  });

  it("revoking a grant id of another listener's agent is a 404 that changes nothing", async () => {
    const { other } = await privateArticleOf("harbour-pilot", "b".repeat(64));
    const route = routes.find((r) => r.auth === "listener_token" && r.path.endsWith("/agents/:grant_id"));
    expect(route).toBeDefined();
    const res = await call(pathOf(route!.path, other.token, { grant_id: "someone-elses-grant" }), { method: "DELETE" });
    expect(res.status).toBe(404);
  });
});
