import { defineConfig } from "drizzle-kit";

// Migrations are generated here and applied by wrangler (`wrangler d1 migrations apply`), never pushed.
export default defineConfig({
  dialect: "sqlite",
  schema: "./workers/db/tables/*.ts",
  out: "./migrations",
});
