import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { seedEngineData } from "../../test/support/engine-data";
import { callWith, FakeRender } from "../../test/support/narration";
import { publishSigned } from "../../test/support/publish";
import { articles, database, renderJobs } from "../db";
import { detectedLanguage, detectLanguage } from "../kernel/language-detect";

// Issue 42 item 1 (../shared/DESIGN.md "Contracts added in turn 4", Languages): `language` in, or
// detected; the record, the job view and the audio response say it and where it came from.

const english = "The city council approved the repair of the old bridge yesterday, after a long debate about its cost.";

const article = (over: Record<string, unknown> = {}) => ({
  title: "Bridge repair approved",
  publisher: "Example Times",
  vertical: "news",
  body_text: english,
  ...over,
});

describe("language detection", () => {
  it.each([
    ["de", "Der Gemeinderat hat gestern beschlossen, die alte Brücke zu sanieren."],
    ["es", "El ayuntamiento aprobó ayer la reforma del puente viejo."],
    ["ru", "Городской совет вчера одобрил ремонт старого моста."],
    ["ja", "市議会は昨日、古い橋の改修を承認しました。"],
    ["ar", "وافق مجلس المدينة أمس على ترميم الجسر القديم."],
    ["en", english],
  ])("reads %s from one sentence", (language, text) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it("does not guess from too little text", () => {
    expect(detectLanguage("ok")).toBeNull();
  });

  it("takes the language a page declares only when its text cannot tell, and only one an engine speaks", () => {
    const detected = (language: string) => ({ language, language_source: "detected" });
    expect(detectedLanguage("ok", "de-DE")).toEqual(detected("de"));
    // A site template that says en on every page does not override German text.
    expect(detectedLanguage("Der Gemeinderat hat gestern beschlossen, die alte Brücke zu sanieren.", "en")).toEqual(detected("de"));
    for (const nonsense of ["x-klingon", "<script>", "tlh", ""]) expect(detectedLanguage("ok", nonsense)).toEqual(detected("en"));
  });
});

describe("POST /v1/webhook/publish with and without language", () => {
  it("records a detected language when none is given, and a given one canonicalised", async () => {
    const detected = await publishSigned(article({ slug: "lang-detected" }));
    expect(detected.status).toBe(200);
    expect(await detected.json()).toMatchObject({ slug: "lang-detected", language: "en", language_source: "detected" });

    const given = await publishSigned(article({ slug: "lang-given", language: "EN-gb" }));
    expect(await given.json()).toMatchObject({ language: "en-GB", language_source: "given" });
    const row = await database(env).query.articles.findFirst({ where: eq(articles.slug, "lang-given") });
    expect(row).toMatchObject({ language: "en-GB", languageSource: "given" });
  });

  it("422 naming a language no engine speaks, and nothing is stored", async () => {
    const res = await publishSigned(article({ slug: "lang-klingon", language: "tlh" }));
    expect(res.status).toBe(422);
    const body = await res.json<{ detail: { loc: string[]; msg: string; type: string }[] }>();
    expect(body.detail).toEqual([{ loc: ["body", "language"], msg: expect.stringContaining("tlh"), type: "unsupported_language" }]);
    expect(await database(env).query.articles.findFirst({ where: eq(articles.slug, "lang-klingon") })).toBeUndefined();
  });

  it("422 for a tag that is not BCP 47", async () => {
    expect((await publishSigned(article({ slug: "lang-bad", language: "not a tag" }))).status).toBe(422);
  });

  it("renders again when only the language changes", async () => {
    await publishSigned(article({ slug: "lang-change", language: "en-US" }));
    const again = await publishSigned(article({ slug: "lang-change", language: "en-US" }));
    expect(await again.json()).toMatchObject({ job_id: null });
    const changed = await publishSigned(article({ slug: "lang-change", language: "en-GB" }));
    expect(await changed.json()).toMatchObject({ job_id: expect.any(String), language: "en-GB" });
  });

  it("the article's audio view carries its language", async () => {
    await publishSigned(article({ slug: "lang-audio", language: "en-GB" }));
    const res = await call("/v1/articles/lang-audio/audio", { headers: apiKeyHeaders });
    expect(await res.json()).toMatchObject({ slug: "lang-audio", language: "en-GB", language_source: "given" });
  });
});

describe("POST /v1/jobs and POST /v1/render with language", () => {
  it("a raw-text job keeps its language; the job view says it; an article's job says its article's", async () => {
    const render = new FakeRender();
    const res = await callWith(render, "/v1/jobs", jsonBody("POST", { text: english, language: "en-GB" }, apiKeyHeaders));
    expect(res.status).toBe(202);
    const job = await res.json<{ id: string }>();
    expect(job).toMatchObject({ language: "en-GB", language_source: "given" });
    expect(await database(env).query.renderJobs.findFirst({ where: eq(renderJobs.id, job.id) })).toMatchObject({ language: "en-GB" });
    const polled = await callWith(render, `/v1/jobs/${job.id}`, { headers: apiKeyHeaders });
    expect(await polled.json()).toMatchObject({ language: "en-GB", language_source: "given" });

    await publishSigned(article({ slug: "lang-job", language: "en-GB" }));
    const byArticle = await callWith(render, "/v1/jobs", jsonBody("POST", { article_slug: "lang-job" }, apiKeyHeaders));
    expect(await byArticle.json()).toMatchObject({ article_slug: "lang-job", language: "en-GB", language_source: "given" });
  });

  it("422 naming the language before any job is made", async () => {
    const render = new FakeRender();
    const res = await callWith(render, "/v1/jobs", jsonBody("POST", { text: english, language: "tlh" }, apiKeyHeaders));
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("tlh");
    expect(await database(env).select().from(renderJobs).where(eq(renderJobs.language, "tlh"))).toEqual([]);
  });

  it("the render Worker speaks the render in a voice of its language (en-GB), and the response says it", async () => {
    const res = await call("/v1/render", jsonBody("POST", { text: "Colour and flavour, in the British way.", language: "en-GB" }, apiKeyHeaders));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ provider: "offline", voice: "en-GB-female", language: "en-GB", language_source: "given" });
  });

  it("detects the language of a render and hands it to the render Worker; 422 for one no engine speaks", async () => {
    const render = new FakeRender();
    const res = await callWith(render, "/v1/render", jsonBody("POST", { text: english }, apiKeyHeaders));
    expect(await res.json()).toMatchObject({ language: "en", language_source: "detected" });
    expect(render.renders.at(-1)).toMatchObject({ language: "en" });
    const refused = await callWith(render, "/v1/render", jsonBody("POST", { text: english, language: "tlh" }, apiKeyHeaders));
    expect(refused.status).toBe(422);
    expect(render.renders).toHaveLength(1);
  });

  it("a German text is detected and spoken by the offline engine's German voice, its data read from R2 when first needed", async () => {
    await seedEngineData("de");
    const text = "Der Gemeinderat hat gestern beschlossen, die alte Brücke zu sanieren.";
    const res = await call("/v1/render", jsonBody("POST", { text }, apiKeyHeaders));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ provider: "offline", voice: "de-female", language: "de", language_source: "detected", fallback: false });
  });

  it("GET /v1/voices?language= lists only that language's voices, each saying its language", async () => {
    const res = await call("/v1/voices?language=de");
    expect(res.status).toBe(200);
    const { voices } = await res.json<{ voices: { id: string; language: string; available: boolean }[] }>();
    expect(voices.map((v) => v.id).sort()).toEqual(["de-female", "de-male"]);
    expect(voices.every((v) => v.language === "de" && v.available)).toBe(true);
    const portuguese = await (await call("/v1/voices?language=pt")).json<{ voices: { language: string }[] }>();
    expect(new Set(portuguese.voices.map((v) => v.language))).toEqual(new Set(["pt", "pt-BR"]));
    expect((await call("/v1/voices?language=not%20a%20tag")).status).toBe(422);
  });
});
