import { applyD1Migrations, env, reset, type D1Migration } from "cloudflare:test";
import { beforeEach } from "vitest";
import { forgetCopies } from "../workers/core/edge-cache";
import { forgetRecentArticles } from "../workers/kernel/article-by-slug";
import { forgetNarrationProblems } from "../workers/health/narration-state";
import { forgetSearches } from "../workers/articles/search-service";
import { forgetTrending } from "../workers/articles/trending-cache";
import { forgetCountedListeners } from "../workers/kernel/download-count";
import { forgetSalts } from "../workers/kernel/listener-hash";
import { forgetParagraphHeads } from "../workers/render/pipeline/paragraph-cache";

// vitest.config.ts reads migrations/ and passes it as a binding only tests have.
const { TEST_MIGRATIONS } = env as typeof env & { TEST_MIGRATIONS: D1Migration[] };

// Storage is shared across tests in the Workers pool: start every test from the migrated, empty state.
beforeEach(async () => {
  await reset();
  forgetCopies();
  forgetRecentArticles();
  forgetNarrationProblems();
  forgetSearches();
  forgetTrending();
  forgetSalts();
  forgetCountedListeners();
  forgetParagraphHeads();
  await applyD1Migrations(env.DB, TEST_MIGRATIONS);
});
