import { env } from "cloudflare:workers";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { database, preparedOnce, schema } from "../workers/db";

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

const tables = Object.values(schema as Record<string, unknown>).filter((t): t is SQLiteTable => t instanceof SQLiteTable);

describe("drizzle schema vs migrations/", () => {
  it("declares some tables", () => {
    expect(tables.length).toBeGreaterThan(5);
  });

  it.each(tables.map((t) => [getTableConfig(t).name, t] as const))("%s matches the migrated table", async (name, table) => {
    const config = getTableConfig(table);
    const { results } = await env.DB.prepare(`PRAGMA table_info("${name}")`).all<ColumnInfo>();
    const migrated = Object.fromEntries(results.map((c) => [c.name, c]));
    const declared = config.columns.map((c) => c.name).sort();
    expect(Object.keys(migrated).sort()).toEqual(declared);
    const compositePk = config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name));
    for (const column of config.columns) {
      const actual = migrated[column.name];
      expect(actual.type.toLowerCase(), `${name}.${column.name} type`).toBe(column.getSQLType().toLowerCase());
      expect(actual.notnull === 1 || actual.pk > 0, `${name}.${column.name} not null`).toBe(column.notNull || column.primary);
      expect(actual.pk > 0, `${name}.${column.name} primary key`).toBe(column.primary || compositePk.includes(column.name));
    }
  });

  it("has every declared index", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all<{ name: string }>();
    const names = new Set(results.map((r) => r.name));
    for (const table of tables) {
      for (const idx of getTableConfig(table).indexes) expect(names, idx.config.name).toContain(idx.config.name);
    }
  });
});

describe("the drizzle client", () => {
  it("is built once per D1 binding, not per request", () => {
    expect(database({ DB: env.DB })).toBe(database(env));
  });

  it("prepares a statement once per client, and runs it with each call's values", async () => {
    let built = 0;
    const names = preparedOnce((db) => {
      built += 1;
      return db
        .select({ name: sql<string>`${sql.placeholder("name")}` })
        .from(sql`(select 1)`)
        .prepare();
    });
    expect(await names(database(env)).all({ name: "ada" })).toEqual([{ name: "ada" }]);
    expect(await names(database(env)).all({ name: "grace" })).toEqual([{ name: "grace" }]);
    expect(built).toBe(1);
  });
});
