import { describe, expect, it } from "vitest";
import { probeAudio } from "../../test/support/audio-probe";
import { call } from "../../test/support/client";
import { pollJob, publishSigned as publish } from "../../test/support/publish";

// The end-to-end project's render Worker has SELFHOSTED_TTS_BASE_URL pointing at the loopback speech
// server of scripts/selfhosted-tts-setup.mjs (Kokoro-FastAPI's API, real speech; vitest.config.ts):
// a publish is narrated through the queue by the self-hosted voice, with nothing else configured.

describe("a self-hosted speech server, end to end", () => {
  it("lists its voices as available in GET /v1/voices, and its af_heart is the default", async () => {
    const body = await (await call("/v1/voices")).json<{
      default_voice: string;
      default_provider: string;
      voices: { id: string; provider: string; available: boolean; reason: string | null }[];
    }>();
    expect(body).toMatchObject({ default_voice: "af_heart", default_provider: "selfhosted" });
    const selfhosted = body.voices.filter((v) => v.provider === "selfhosted");
    expect(selfhosted.length).toBeGreaterThanOrEqual(15);
    expect(selfhosted.every((v) => v.available && v.reason === null)).toBe(true);
    // Above eSpeak in the list: neural before formant.
    const order = body.voices.map((v) => v.provider);
    expect(order.lastIndexOf("selfhosted")).toBeLessThan(order.indexOf("offline"));
  });

  it("narrates a publish through the queue with the self-hosted voice: the job and the audio say so, at -16 LUFS", async () => {
    const res = await publish({
      title: "Kites over the Dunes",
      publisher: "Coast Weekly",
      vertical: "culture",
      body_text: "Every spring the dunes fill with kites. The wind off the sea keeps them up all afternoon.",
    });
    expect(res.status).toBe(200);
    const { slug, job_id } = await res.json<{ slug: string; job_id: string }>();
    const job = await pollJob(job_id);
    expect(job).toMatchObject({
      state: "done",
      article_slug: slug,
      provider: "selfhosted",
      voice: "af_heart",
      quality: "neural",
      requested_voice: null,
      fallback: false,
    });
    const audio = await (await call(`/v1/articles/${slug}/audio`)).json<Record<string, unknown>>();
    expect(audio).toMatchObject({ state: "done", provider: "selfhosted", voice: "af_heart", quality: "neural", fallback: false });
    const mp3 = await call(new URL(job.audio_url!).pathname);
    expect(mp3.status).toBe(200);
    const probe = await probeAudio(await mp3.arrayBuffer(), "mp3");
    expect(probe.duration).toBeGreaterThan(3);
    expect(Math.abs(probe.integrated_lufs - -16)).toBeLessThanOrEqual(1);
    expect(probe.true_peak_dbtp).toBeLessThanOrEqual(-1);
  });
});
