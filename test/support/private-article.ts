import { env } from "cloudflare:workers";
import { addArticle, addListener, addPlays } from "./articles";
import { call, jsonBody } from "./client";

/**
 * The no-leak fixture (docs/rules.md "Rules" 2): `owner` forwards a listener_private article about `secret`,
 * made as visible as an article can be (narrated with `audioKey`, the most played), beside a public one
 * in the same vertical; `other` is a second listener of that vertical. Returns both and the slug.
 */
export async function privateArticleOf(secret: string, audioKey: string) {
  const owner = await addListener({ verticals: ["tech"] });
  const other = await addListener({ verticals: ["tech"] });
  const forwarded = await call(
    `/v1/listeners/${owner.token}/forward`,
    jsonBody("POST", { url: `https://example.com/${secret}`, title: `The ${secret} story`, text: `All about ${secret}.`, vertical: "tech" }),
  );
  const slug = (await forwarded.json<{ slug: string }>()).slug;
  await env.DB.prepare("update articles set audio_key = ?, listen_seconds = 60 where slug = ?").bind(audioKey, slug).run();
  const id = (await env.DB.prepare("select id from articles where slug = ?").bind(slug).first<{ id: number }>())!.id;
  await addPlays(id, 50);
  await addArticle({ title: "A public tech story", audioKey, vertical: "tech" });
  return { owner, other, slug, id };
}
