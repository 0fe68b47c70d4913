// Seeding for benchmarks: runs SQL against the local D1 database the benchmarked server uses.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Executes `sql` (many statements) on the local D1 database under `persistTo`. */
export function executeSql(persistTo, sql) {
  const dir = mkdtempSync(join(tmpdir(), "bench-sql-"));
  const file = join(dir, "seed.sql");
  writeFileSync(file, sql);
  try {
    const extra = persistTo ? ["--persist-to", persistTo] : [];
    execFileSync("wrangler", ["d1", "execute", "DB", "--local", "-c", "wrangler.toml", ...extra, "--file", file], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, CI: "true" },
      maxBuffer: 1 << 28,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
