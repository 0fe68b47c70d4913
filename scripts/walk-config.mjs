import { defineConfig } from "vitest/config";
import base from "../vitest.config.ts";

/**
 * vitest.config.ts narrowed to test/request-walk.walk.ts in its first project, with the Worker's own modules
 * instrumented by istanbul (V8 coverage cannot reach into workerd); run by scripts/walk.mjs.
 */
export default defineConfig(async (env) => {
  const config = await (typeof base === "function" ? base(env) : base);
  const [first] = config.test.projects;
  return {
    ...config,
    test: {
      ...config.test,
      projects: [{ ...first, test: { ...first.test, include: ["test/request-walk.walk.ts"], exclude: [] } }],
      coverage: {
        enabled: true,
        provider: "istanbul",
        include: ["workers/**/*.ts", "durable-objects/**/*.ts"],
        exclude: ["**/*.test.ts"],
        reporter: [],
        reportsDirectory: "node_modules/.walk-coverage",
      },
    },
  };
});
