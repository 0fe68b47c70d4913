/**
 * Deterministic generative cover art: the same prompt and size always give the same picture.
 * Shapes only (no text, so no font to bundle), and no filters: resvg's cost then grows with the
 * pixel count alone, which keeps a 3000x3000 podcast cover within a Worker's CPU budget.
 */

/** mulberry32: a tiny seeded PRNG; quality is ample for picking colours and positions. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h) % 360} ${Math.round(s)}% ${Math.round(l)}%)`;
const r1 = (x: number) => Math.round(x * 10) / 10;

/** An SVG of `width`x`height` whose palette and composition derive from `seed` (e.g. the prompt's hash). */
export function artSvg(seed: Uint8Array, width: number, height: number): string {
  const rand = prng(new DataView(seed.buffer, seed.byteOffset, 4).getUint32(0));
  const hue = rand() * 360;
  // An analogous palette with one complementary accent.
  const palette = [hue, hue + 25, hue + 50, hue + 180].map((h, i) => hsl(h, 55 + rand() * 30, i === 3 ? 60 : 35 + rand() * 30));
  const unit = Math.min(width, height);
  const parts: string[] = [];
  parts.push(
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="${r1(rand())}" y2="1">` +
      `<stop offset="0" stop-color="${hsl(hue, 45, 18)}"/><stop offset="1" stop-color="${hsl(hue + 40, 55, 40)}"/></linearGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
  );
  const circles = 7 + Math.floor(rand() * 6);
  for (let i = 0; i < circles; i++) {
    const radius = unit * (0.06 + rand() * 0.32);
    parts.push(
      `<circle cx="${r1(rand() * width)}" cy="${r1(rand() * height)}" r="${r1(radius)}" fill="${palette[i % palette.length]}" fill-opacity="${r1(0.25 + rand() * 0.5)}"/>`,
    );
  }
  const waves = 3 + Math.floor(rand() * 3);
  for (let i = 0; i < waves; i++) {
    const y = height * (0.2 + rand() * 0.7);
    const amp = unit * (0.05 + rand() * 0.15);
    const d = `M0 ${r1(y)} C${r1(width * 0.3)} ${r1(y - amp)} ${r1(width * 0.6)} ${r1(y + amp)} ${width} ${r1(y - amp / 2)}`;
    parts.push(`<path d="${d}" fill="none" stroke="${palette[(i + 1) % palette.length]}" stroke-width="${r1(unit * (0.004 + rand() * 0.02))}" stroke-opacity="0.8"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join("")}</svg>`;
}

/** An SVG that shows a raster image (e.g. a Workers AI picture) stretched to cover `width`x`height`. */
export function imageSvg(dataUrl: string, width: number, height: number): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}">` +
    `<image width="${width}" height="${height}" preserveAspectRatio="xMidYMid slice" xlink:href="${dataUrl}"/></svg>`
  );
}
