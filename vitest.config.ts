import { readFileSync } from "node:fs";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testVars } from "./test/vars.ts";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  const compatibilityDate = /compatibility_date\s*=\s*"([^"]+)"/.exec(readFileSync("wrangler.toml", "utf8"))?.[1];
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        // Workers AI cannot run offline; tests use the local implementations behind it.
        remoteBindings: false,
        miniflare: {
          bindings: { ...testVars, COMPATIBILITY_DATE: compatibilityDate ?? "unknown", TEST_MIGRATIONS: migrations },
        },
      }),
    ],
    test: {
      include: ["workers/**/*.test.ts", "durable-objects/**/*.test.ts", "test/**/*.test.ts"],
      setupFiles: ["./test/setup.ts"],
    },
  };
});
