// Topic art: rendering is the CPU-heavy part (resvg in WASM), so cold renders run one at a time
// with a fresh prompt each, and their latency is close to the Worker CPU time a cover costs.
import { load, loadRows } from "./http.mjs";

export async function run({ base }) {
  const rows = [];
  const stamp = Date.now();
  for (const [w, h] of [
    [1200, 630],
    [1400, 1400],
    [3000, 3000],
  ]) {
    let n = 0;
    const cold = await load(() => fetch(`${base}/v1/topic-art?prompt=${encodeURIComponent(`bench ${stamp} ${w} ${n++}`)}&w=${w}&h=${h}`), {
      total: w === 3000 ? 8 : 15,
      concurrency: 1,
    });
    rows.push(...loadRows(`topic art ${w}x${h}, cold render (generative, stored to R2)`, cold).slice(0, 2));
  }
  const warm = `${base}/v1/topic-art?prompt=${encodeURIComponent(`bench ${stamp} warm`)}&w=3000&h=3000`;
  await (await fetch(warm)).arrayBuffer();
  rows.push(...loadRows("topic art 3000x3000, cached", await load(() => fetch(warm), { total: 200 })).slice(0, 2));
  return rows;
}
