import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addArticle } from "../../test/support/articles";
import { articles, database } from "../db";
import { eq } from "drizzle-orm";
import { forgetRecentArticle, recentArticleBySlug } from "./article-by-slug";

describe("recentArticleBySlug", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers a read of the last five seconds from the isolate, then asks D1 again", async () => {
    await addArticle({ slug: "kept", bodyText: "First text." });
    const db = database(env);
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now);
    expect((await recentArticleBySlug(db, "kept"))?.bodyText).toBe("First text.");
    await database(env).update(articles).set({ bodyText: "Second text." }).where(eq(articles.slug, "kept"));
    vi.spyOn(Date, "now").mockReturnValue(now + 4_900);
    expect((await recentArticleBySlug(db, "kept"))?.bodyText).toBe("First text.");
    vi.spyOn(Date, "now").mockReturnValue(now + 5_000);
    expect((await recentArticleBySlug(db, "kept"))?.bodyText).toBe("Second text.");
  });

  it("never hands out a read in flight: a Worker request may not wait on another request's I/O", async () => {
    // Planted: keeping the read's promise (shared by concurrent first reads) made overlapping MCP calls
    // fail in workerd with "Promise will never complete" (workers/agents/oauth-tools.test.ts).
    await addArticle({ slug: "shared" });
    const db = database(env);
    const [a, b] = [recentArticleBySlug(db, "shared"), recentArticleBySlug(db, "shared")];
    expect(a).not.toBe(b);
    expect((await a)?.slug).toBe("shared");
    expect((await b)?.slug).toBe("shared");
  });

  it("keeps no row read before the article was written and forgotten here", async () => {
    await addArticle({ slug: "raced", bodyText: "Old text." });
    const db = database(env);
    const reading = recentArticleBySlug(db, "raced");
    await database(env).update(articles).set({ bodyText: "New text." }).where(eq(articles.slug, "raced"));
    forgetRecentArticle("raced");
    await reading;
    expect((await recentArticleBySlug(db, "raced"))?.bodyText).toBe("New text.");
  });

  it("keeps no answer for a slug not found, so an article published a moment later shows at once", async () => {
    const db = database(env);
    expect(await recentArticleBySlug(db, "soon")).toBeUndefined();
    await addArticle({ slug: "soon" });
    expect((await recentArticleBySlug(db, "soon"))?.slug).toBe("soon");
  });

  it("keeps no failed read", async () => {
    await addArticle({ slug: "flaky" });
    // Statements prepare as usual and fail when run, as when D1 is unreachable.
    const failing = <T extends object>(statement: T): T =>
      new Proxy(statement, {
        get(target, key) {
          const value = Reflect.get(target, key);
          if (typeof value !== "function") return value;
          if (key === "bind") return (...args: unknown[]) => failing(value.apply(target, args));
          return () => Promise.reject(new Error("D1 is away"));
        },
      });
    const DB = new Proxy(env.DB, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (key === "prepare") return (query: string) => failing(target.prepare(query));
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const broken = database({ DB });
    await expect(recentArticleBySlug(broken, "flaky")).rejects.toThrow();
    expect((await recentArticleBySlug(database(env), "flaky"))?.slug).toBe("flaky");
  });

  it("reads D1 again once the article was written in this isolate", async () => {
    await addArticle({ slug: "rewritten", bodyText: "Old." });
    const db = database(env);
    await recentArticleBySlug(db, "rewritten");
    await database(env).update(articles).set({ bodyText: "New." }).where(eq(articles.slug, "rewritten"));
    forgetRecentArticle("rewritten");
    expect((await recentArticleBySlug(db, "rewritten"))?.bodyText).toBe("New.");
  });
});
