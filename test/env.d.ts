declare namespace Cloudflare {
  interface Env {
    /** The migrations/ folder, read by vitest.config.ts and applied before each test. */
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
