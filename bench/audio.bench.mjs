// Cached audio: the hot path podcast apps hit. Renders one text, then hammers GET /v1/audio/{key}.mp3
// whole and with Range (Apple Podcasts opens with bytes=0-1), served from the edge cache after the first read.
import { load, loadRows } from "./http.mjs";

const TEXT = "Benchmarks measure what matters. This sentence is rendered once and then served from the cache.";

export async function run({ base, vars }) {
  const res = await fetch(`${base}/v1/render`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-key": vars.SERVICE_API_KEY },
    body: JSON.stringify({ text: TEXT }),
  });
  if (!res.ok) throw new Error(`render for the audio bench answered ${res.status}: ${await res.text()}`);
  const { key } = await res.json();
  const url = `${base}/v1/audio/${key}.mp3`;
  await (await fetch(url)).arrayBuffer(); // warm the edge cache
  return [
    ...loadRows("GET cached .mp3 (whole file)", await load(() => fetch(url), { total: 1000 })),
    ...loadRows("GET cached .mp3 (Range: bytes=0-1)", await load(() => fetch(url, { headers: { Range: "bytes=0-1" } }), { total: 1000 })),
    ...loadRows("GET cached .mp3 (Range: bytes=1000-8999)", await load(() => fetch(url, { headers: { Range: "bytes=1000-8999" } }), { total: 1000 })),
  ];
}
