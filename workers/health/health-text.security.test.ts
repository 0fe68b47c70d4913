import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addArticle } from "../../test/support/articles";
import { apiKeyHeaders, call, jsonBody } from "../../test/support/client";
import { publishSigned } from "../../test/support/publish";
import { forgetNarrationProblems } from "./narration-state";

/** What an attacker wants shown on the public health page. */
const GRAFFITI = "VISIT-EVIL.EXAMPLE-FOR-FREE-CREDIT";

const jobs = async () => (await env.DB.prepare("SELECT count(*) AS n FROM render_jobs").first<{ n: number }>())!.n;

describe("nobody writes on the public health page (issue 40 item 4)", () => {
  it("POST /v1/jobs with a voice nobody offers is a 422, and no job is queued", async () => {
    const res = await call("/v1/jobs", jsonBody("POST", { text: "Hello there.", voice: GRAFFITI }, apiKeyHeaders));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ detail: [{ loc: ["body", "voice"], type: "unknown_voice" }] });
    expect(await jobs()).toBe(0);
  });

  it("a publish naming a voice nobody offers is a 422: no article, no job", async () => {
    const res = await publishSigned({ title: "A story", body_text: "It begins here.", publisher: "Daily", vertical: "tech", voice: GRAFFITI });
    expect(res.status).toBe(422);
    expect(await jobs()).toBe(0);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM articles").first<{ n: number }>())!.n).toBe(0);
  });

  it("GET /v1/agent/articles/{slug}/audio?voice= a voice nobody offers is a 422 before any quote or job", async () => {
    const article = await addArticle();
    const res = await call(`/v1/agent/articles/${article.slug}/audio?voice=${GRAFFITI}`);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ detail: [{ loc: ["query", "voice"], type: "unknown_voice" }] });
    expect(await jobs()).toBe(0);
  });

  it("a catalogue voice is still taken", async () => {
    const res = await call("/v1/jobs", jsonBody("POST", { text: "Hello there.", voice: "en-GB-male" }, apiKeyHeaders));
    expect(res.status).toBe(202);
  });

  it("a job that failed with a caller's text in its error shows on GET /v1/health in the service's own words only", async () => {
    const failures = [
      `unknown_voice: ${GRAFFITI} is not in the catalogue`,
      `no_provider: selfhosted/${GRAFFITI}: upstream_4xx`,
      `too_long: ${GRAFFITI}`,
      `TypeError: ${GRAFFITI}`,
    ];
    for (const [i, error] of failures.entries()) {
      await env.DB.prepare("INSERT INTO render_jobs (id, state, error, finished_at) VALUES (?, 'failed', ?, ?)")
        .bind(`f${i}`, error, Date.now() - 60_000 + i)
        .run();
      forgetNarrationProblems();
      const body = await (await call("/v1/health")).text();
      expect(body).toContain("render job(s) failed");
      expect(body).not.toContain(GRAFFITI);
    }
  });
});
