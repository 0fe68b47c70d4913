import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, jsonBody } from "../../test/support/client";
import { seedEngineData } from "../../test/support/engine-data";
import { pollJob, publishSigned } from "../../test/support/publish";
import { issuePublisherKey } from "../kernel/publisher-keys";
import { VOICES } from "../kernel/voice-catalogue";

// Issue 42 item 2: a publisher's default voice per language (docs/publishers.md "Default voice per
// language"), set through the settings API, checked against the catalogue, and used by the real render
// Worker's selection rule before the catalogue's best, without ever changing the language.

const german = "Der Gemeinderat hat gestern beschlossen, die alte Brücke im Hafen zu sanieren, nach einer langen Debatte.";
const english = "The city council approved the repair of the old bridge yesterday, after a long debate about its cost.";

async function keyOf(publisher: string) {
  return { Authorization: `Bearer ${(await issuePublisherKey(env, publisher)).key}` };
}

const settingsPath = (publisher: string) => `/v1/publishers/${encodeURIComponent(publisher)}/settings`;

async function narrated(publisher: string, slug: string, body_text: string) {
  const res = await publishSigned({ slug, title: "Brücke", publisher, vertical: "news", body_text });
  expect(res.status).toBe(200);
  return pollJob((await res.json<{ job_id: string }>()).job_id);
}

describe("a publisher's default voice per language", () => {
  it("422 for a voice that does not speak the language or is not in the catalogue, and nothing changes", async () => {
    const key = await keyOf("Rheinpost");
    const wrong = await call(settingsPath("Rheinpost"), jsonBody("PATCH", { default_voices: { de: "nova" } }, key));
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(await wrong.json())).toContain("nova does not speak de");
    const unknown = await call(settingsPath("Rheinpost"), jsonBody("PATCH", { default_voices: { de: "no-such-voice" } }, key));
    expect(unknown.status).toBe(422);
    expect((await call(settingsPath("Rheinpost"), jsonBody("PATCH", { default_voices: { "not a tag": "de-male" } }, key))).status).toBe(422);
    const unchanged = await call(settingsPath("Rheinpost"), jsonBody("PATCH", {}, key));
    expect(await unchanged.json()).toEqual({ publisher: "Rheinpost", review_before_release: false, default_voices: {} });
  });

  it("speaks a narration that asks for no voice in the publisher's voice for its language; other publishers keep the catalogue's best", async () => {
    await seedEngineData("de");
    const key = await keyOf("Rheinpost");
    const set = await call(settingsPath("Rheinpost"), jsonBody("PATCH", { default_voices: { DE: "de-male" } }, key));
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ publisher: "Rheinpost", review_before_release: false, default_voices: { de: "de-male" } });
    // Another publisher's key cannot change them.
    expect((await call(settingsPath("Rheinpost"), jsonBody("PATCH", { default_voices: { de: "de-female" } }, await keyOf("Elbkurier")))).status).toBe(404);

    expect(await narrated("Rheinpost", "dv-rheinpost", german)).toMatchObject({ state: "done", voice: "de-male", language: "de", fallback: false });
    expect(await narrated("Elbkurier", "dv-elbkurier", german)).toMatchObject({ state: "done", voice: "de-female", language: "de" });

    // null removes it: the catalogue's best speaks again.
    const removed = await call(settingsPath("Rheinpost"), jsonBody("PATCH", { default_voices: { de: null } }, key));
    expect(await removed.json()).toMatchObject({ default_voices: {} });
    expect(await narrated("Rheinpost", "dv-rheinpost-again", `${german} Noch einmal.`)).toMatchObject({ voice: "de-female" });
  });

  it("when the default voice's engine is unavailable another voice of the same language speaks", async () => {
    const key = await keyOf("Harbour Daily");
    // OpenAI's nova speaks English; the tests' render Worker has no OpenAI key.
    expect((await call(settingsPath("Harbour Daily"), jsonBody("PATCH", { default_voices: { en: "nova" } }, key))).status).toBe(200);
    const job = await narrated("Harbour Daily", "dv-harbour", english);
    expect(job).toMatchObject({ state: "done", language: "en" });
    expect(job.provider).not.toBe("openai");
    expect(VOICES.find((o) => o.id === job.voice && o.provider === job.provider)?.language).toMatch(/^en-/);
  });
});
