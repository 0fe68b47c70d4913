import { initWasm, Resvg } from "@resvg/resvg-wasm";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm";
import { artSvg, imageSvg } from "./art-svg";

/** Workers compile WebAssembly only from imported modules (Cloudflare docs, "WebAssembly in Workers"): initialise once per isolate. */
let ready: Promise<void> | null = null;
function resvg(): Promise<void> {
  ready ??= initWasm(resvgWasm).catch((err: unknown) => {
    ready = null;
    throw err;
  });
  return ready;
}

/** Workers AI text-to-image model (SDXL Lightning answers with PNG bytes, up to 2048 px a side). */
export const AI_IMAGE_MODEL = "@cf/bytedance/stable-diffusion-xl-lightning";
const AI_MAX_SIDE = 2048;
const AI_TIMEOUT_MS = 20_000;

async function svgToPng(svg: string): Promise<Uint8Array> {
  await resvg();
  const renderer = new Resvg(svg, { font: { loadSystemFonts: false }, shapeRendering: 2 });
  try {
    const image = renderer.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** After a failure the model is not asked again for a while: offline, every call would fail the same way. */
const AI_RETRY_AFTER_MS = 10 * 60_000;
const aiFailedAt = new WeakMap<Ai, number>();

/** A picture from Workers AI, or null when the binding is absent or fails (always, offline). */
async function aiPicture(ai: Ai | undefined, prompt: string, width: number, height: number): Promise<Uint8Array | null> {
  if (!ai || Date.now() - (aiFailedAt.get(ai) ?? -Infinity) < AI_RETRY_AFTER_MS) return null;
  const scale = Math.min(1, AI_MAX_SIDE / Math.max(width, height));
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const run = ai.run(AI_IMAGE_MODEL as never, { prompt, width: Math.round(width * scale), height: Math.round(height * scale) } as never);
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timeout")), AI_TIMEOUT_MS)));
    const out = (await Promise.race([run, timeout])) as unknown;
    if (out instanceof ReadableStream) return new Uint8Array(await new Response(out).arrayBuffer());
    throw new Error("unexpected model output");
  } catch {
    aiFailedAt.set(ai, Date.now());
    return null;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

export type ArtSource = "workers-ai" | "generative";

/**
 * The PNG for a prompt at exactly `width`x`height`: the Workers AI picture scaled to cover the
 * frame when the model answers, otherwise generative art seeded by `seed`; either with `title`
 * written on it when one is given (a podcast's name on its cover).
 */
export async function renderArt(
  ai: Ai | undefined,
  prompt: string,
  seed: Uint8Array,
  width: number,
  height: number,
  title = "",
): Promise<{ png: Uint8Array; source: ArtSource }> {
  const picture = await aiPicture(ai, prompt, width, height);
  if (picture) return { png: await svgToPng(imageSvg(`data:image/png;base64,${toBase64(picture)}`, width, height, title)), source: "workers-ai" };
  return { png: await svgToPng(artSvg(seed, width, height, title)), source: "generative" };
}
