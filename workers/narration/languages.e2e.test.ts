import { beforeEach, describe, expect, it } from "vitest";
import { probeAudio } from "../../test/support/audio-probe";
import { call } from "../../test/support/client";
import { seedEngineData } from "../../test/support/engine-data";
import { forgetEdgeCache } from "../../test/support/feeds";
import { validatePodcastFeed } from "../../test/support/podcast-validator";
import { pollJob, publishSigned } from "../../test/support/publish";
import { openPage } from "../../test/support/web";

// Issue 42: four articles end to end, each in its own language, through the real render Worker
// (vitest.config.ts "e2e"): signed publish → job → audio (ffprobe decodes it) → the language's feed
// (read by podcast-partytime) → the page's lang and dir, its words timed → search.

const ARTICLES = [
  {
    language: "de",
    dir: "ltr",
    title: "Die Fähre fährt wieder",
    body_text: "Nach drei Monaten Pause fährt die Fähre über den Fluss wieder. Die Brücke bleibt bis zum Sommer gesperrt.",
    query: "Fahre",
  },
  {
    language: "ru",
    dir: "ltr",
    title: "Новый мост через реку",
    body_text: "Строители закончили новый мост через реку. Первые автобусы поедут по нему в понедельник.",
    query: "мост",
  },
  {
    language: "ja",
    dir: "ltr",
    // Written as Japanese is, in kanji and kana: the render Worker reads the kanji's readings with the
    // dictionary seeded in R2 (workers/render/engine/readings.ts); without it the render fails.
    title: "川の新しい橋",
    body_text: "新しい橋ができました。月曜日からバスが通ります。",
    query: "バス",
  },
  {
    language: "ar",
    dir: "rtl",
    title: "جسر جديد فوق النهر",
    body_text: "انتهى العمال من بناء الجسر الجديد. ستعبر الحافلات الأولى يوم الاثنين.",
    query: "الحافلات",
  },
] as const;

const feedPath = (language: string) => `/v1/podcasts/service.xml?language=${language}`;

beforeEach(async () => {
  await forgetEdgeCache(ARTICLES.map((a) => feedPath(a.language)));
  await seedEngineData(...ARTICLES.map((a) => a.language));
});

describe("narration in four languages, end to end", () => {
  it.each(ARTICLES)(
    "$language: publish → audio → feed → page → search",
    async ({ language, dir, title, body_text, query }) => {
      const res = await publishSigned({ title, publisher: "Riverside Post", vertical: "news", body_text, language });
      expect(res.status).toBe(200);
      const { slug, job_id } = await res.json<{ slug: string; job_id: string }>();
      const job = await pollJob(job_id);
      expect(job).toMatchObject({ state: "done", language, language_source: "given" });

      const mp3 = await call(new URL(job.audio_url!).pathname);
      expect(mp3.status).toBe(200);
      const probe = await probeAudio(await mp3.arrayBuffer(), "mp3");
      expect(probe.codec).toBe("mp3");
      expect(probe.duration).toBeGreaterThan(1);

      const feedRes = await call(feedPath(language));
      expect(feedRes.status).toBe(200);
      const { feed, problems } = validatePodcastFeed(await feedRes.text(), { locked: false, checkArtworkSize: true });
      expect(problems).toEqual([]);
      expect(feed?.language).toBe(language);
      expect((feed?.items ?? []).map((i) => i.title)).toEqual([title]);

      const html = await (await openPage(`/articles/${slug}`)).text();
      expect(html).toContain(`<html lang="${language}" dir="${dir}">`);
      // Every word of the body is its own timed span: Japanese too, where no space separates them.
      const body = /<p data-start[^>]*>(.*?)<\/p>/s.exec(html)?.[1] ?? "";
      const spans = [...body.matchAll(/<span class="w" data-s="[\d.]+" data-e="[\d.]+">([^<]*)<\/span>/g)].map((m) => m[1]);
      expect(spans.length).toBeGreaterThan(4);
      expect(spans.join("").replace(/\s/g, "")).toBe(body_text.replace(/\s/g, ""));

      const found = await (await call(`/v1/stories/search?q=${encodeURIComponent(query)}&language=${language}&expand=false`)).json<{
        results: { slug: string }[];
      }>();
      expect(found.results.map((r) => r.slug)).toEqual([slug]);
    },
    120_000,
  );
});
