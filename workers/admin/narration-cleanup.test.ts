import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminHeaders, call, jsonBody } from "../../test/support/client";
import { allObjectPaths } from "../kernel/audio-objects";

afterEach(() => vi.restoreAllMocks());

const k = (c: string) => c.repeat(64);

async function seed() {
  await env.DB.prepare(
    `INSERT INTO articles (id, slug, title, publisher, vertical, body_text, content_hash, audio_key) VALUES
     (1, 'a', 'A', 'Acme News', 'tech', 'b', 'h', NULL),
     (2, 'b', 'B', 'Other Daily', 'tech', 'b', 'h', ?)`,
  )
    .bind(k("3"))
    .run();
  // 1: orphan of Acme; 2: orphan of Other Daily; 3: cancelled but the article uses it; 4: cancelled but a done job uses it.
  await env.DB.prepare(
    `INSERT INTO render_jobs (id, article_id, state, audio_key) VALUES
     ('c1', 1, 'cancelled', ?), ('c1b', 1, 'cancelled', ?), ('c2', 2, 'cancelled', ?), ('c3', 2, 'cancelled', ?),
     ('c4', 1, 'cancelled', ?), ('d4', 1, 'done', ?), ('ok', 1, 'done', ?), ('c5', 1, 'cancelled', NULL)`,
  )
    .bind(k("1"), k("1"), k("2"), k("3"), k("4"), k("4"), k("5"))
    .run();
  for (const c of ["1", "2", "3", "4", "5"]) {
    for (const path of allObjectPaths(k(c))) await env.AUDIO.put(path, "x");
    await env.DB.prepare("INSERT INTO audio_objects (key, provider, voice, duration_seconds) VALUES (?, 'p', 'v', 1)").bind(k(c)).run();
  }
}

const cleanup = (body: unknown) => call("/v1/admin/cancelled-audio/cleanup", jsonBody("POST", body, adminHeaders));
/** Every object path of one key (encodings, C2PA sidecar, master, word timings), each present or not. */
const every = (present: boolean) => allObjectPaths(k("1")).map(() => present);
const exists = async (c: string) => (await Promise.all(allObjectPaths(k(c)).map((p) => env.AUDIO.head(p)))).map((o) => o !== null);
const jobKey = async (id: string) => env.DB.prepare("SELECT audio_key FROM render_jobs WHERE id = ?").bind(id).first("audio_key");

describe("POST /v1/admin/cancelled-audio/cleanup (docs/rules.md 4)", () => {
  it("401 without the admin token", async () => {
    expect((await call("/v1/admin/cancelled-audio/cleanup", jsonBody("POST", {}))).status).toBe(401);
  });

  it("is a dry run by default: reports, deletes nothing, nulls nothing", async () => {
    await seed();
    const res = await cleanup({});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      rows_scanned: 5,
      object_keys_targeted: 12,
      deleted: 0,
      rows_nulled: 0,
      errors: [],
      dry_run: true,
      publisher_name_pattern: "%",
    });
    expect(await exists("1")).toEqual(every(true));
    expect(await jobKey("c1")).toBe(k("1"));
  });

  it("deletes only orphaned objects in batches, nulls the cancelled rows and forgets the deleted audio", async () => {
    await seed();
    const del = vi.spyOn(env.AUDIO, "delete");
    const res = await cleanup({ dry_run: false, batch_size: 3 });
    expect(await res.json()).toEqual({
      rows_scanned: 5,
      object_keys_targeted: 12,
      deleted: 12,
      rows_nulled: 5,
      errors: [],
      dry_run: false,
      publisher_name_pattern: "%",
    });
    expect(del.mock.calls.map(([keys]) => (keys as string[]).length)).toEqual([3, 3, 3, 3]);
    expect(await exists("1")).toEqual(every(false));
    expect(await exists("2")).toEqual(every(false));
    for (const kept of ["3", "4", "5"]) expect(await exists(kept)).toEqual(every(true));
    for (const id of ["c1", "c1b", "c2", "c3", "c4"]) expect(await jobKey(id)).toBeNull();
    expect(await jobKey("d4")).toBe(k("4"));
    const left = await env.DB.prepare("SELECT key FROM audio_objects ORDER BY key").all<{ key: string }>();
    expect(left.results.map((r) => r.key)).toEqual([k("3"), k("4"), k("5")]);
    // A second run finds nothing left to do.
    expect(await (await cleanup({ dry_run: false })).json()).toMatchObject({ rows_scanned: 0, deleted: 0 });
  });

  it("filters by publisher_name_pattern (SQL LIKE) and honours limit", async () => {
    await seed();
    expect(await (await cleanup({ publisher_name_pattern: "Acme%" })).json()).toMatchObject({ rows_scanned: 3, object_keys_targeted: 6 });
    expect(await (await cleanup({ publisher_name_pattern: "Other%", dry_run: false })).json()).toMatchObject({
      rows_scanned: 2,
      deleted: 6,
      rows_nulled: 2,
      publisher_name_pattern: "Other%",
    });
    expect(await exists("1")).toEqual(every(true));
    expect(await (await cleanup({ limit: 1 })).json()).toMatchObject({ rows_scanned: 1 });
  });

  it("reports a failed delete batch and carries on; its rows keep their key for the next run", async () => {
    await seed();
    const real = env.AUDIO.delete.bind(env.AUDIO);
    vi.spyOn(env.AUDIO, "delete")
      .mockRejectedValueOnce(new Error("r2 throttled"))
      .mockImplementation((keys) => real(keys));
    const body = await (await cleanup({ dry_run: false, batch_size: 5 })).json<Record<string, unknown>>();
    expect(body).toMatchObject({ deleted: 7, errors: ["delete batch 1 (5 objects): r2 throttled"] });
    expect(await jobKey("c1")).toBe(k("1"));
    expect(await jobKey("c2")).toBeNull();
    expect(body.rows_nulled).toBe(3);
  });

  it("bounds limit and batch_size", async () => {
    expect((await cleanup({ limit: 0 })).status).toBe(422);
    expect((await cleanup({ limit: 10_001 })).status).toBe(422);
    expect((await cleanup({ batch_size: 1001 })).status).toBe(422);
  });
});
