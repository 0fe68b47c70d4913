import { futural } from "hersheytext/hersheytext.min.json";

/**
 * Deterministic generative cover art: the same prompt and size always give the same picture, with
 * its title written on it when one is given. Shapes only, and no filters: resvg's cost then grows
 * with the pixel count alone, which keeps a 3000x3000 podcast cover within a Worker's CPU budget. The
 * title is shapes too: strokes of the Hershey "Roman simplex" font (futural, from hersheytext), so no
 * font file is bundled or loaded (resvg-wasm has none of its own).
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

/** An SVG of `width`x`height` whose palette and composition derive from `seed` (e.g. the prompt's hash), titled `title`. */
export function artSvg(seed: Uint8Array, width: number, height: number, title = ""): string {
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
    parts.push(
      `<path d="${d}" fill="none" stroke="${palette[(i + 1) % palette.length]}" stroke-width="${r1(unit * (0.004 + rand() * 0.02))}" stroke-opacity="0.8"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join("")}${titleSvg(title, width, height)}</svg>`;
}

/** An SVG that shows a raster image (e.g. a Workers AI picture) stretched to cover `width`x`height`, titled `title`. */
export function imageSvg(dataUrl: string, width: number, height: number, title = ""): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}">` +
    `<image width="${width}" height="${height}" preserveAspectRatio="xMidYMid slice" xlink:href="${dataUrl}"/>${titleSvg(title, width, height)}</svg>`
  );
}

/** Hershey glyphs: ASCII 33 to 126 in order, each a stroke path in a box 2 x its half-width `o` wide, capitals from y 1 to the baseline at 22. */
const GLYPHS: readonly { d: string; o: number }[] = futural.chars;
const FIRST = 33;
const SPACE_UNITS = 16;
const CAP_TOP = 1;
const BASELINE = 22;
const LINE_UNITS = 34;
const MAX_LINES = 3;

/** The title in the characters the font has: accents dropped (é to e), anything else left out. */
function drawable(title: string): string {
  return title
    .normalize("NFD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

const glyphOf = (c: string) => GLYPHS[c.charCodeAt(0) - FIRST];
const unitsOf = (word: string) => [...word].reduce((sum, c) => sum + (glyphOf(c)?.o ?? SPACE_UNITS / 2) * 2, 0);

/** The words in at most MAX_LINES lines of about equal length (a long title stays on MAX_LINES lines, smaller). */
function lines(text: string): string[] {
  const words = text.split(" ");
  const total = unitsOf(text);
  const count = Math.min(MAX_LINES, words.length, Math.max(1, Math.round(total / 260)));
  const target = total / count;
  const out: string[] = [];
  for (const word of words) {
    const last = out.at(-1);
    if (last !== undefined && (unitsOf(`${last} ${word}`) <= target * 1.15 || out.length === count)) out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  return out;
}

/**
 * `title` written across the lower part of a `width`x`height` picture: white strokes on a dark band,
 * centred, as large as fits 84% of the width with capitals at most a tenth of the shorter side.
 */
export function titleSvg(title: string, width: number, height: number): string {
  const text = drawable(title);
  if (!text) return "";
  const rows = lines(text);
  const widest = Math.max(...rows.map(unitsOf));
  const scale = Math.min((0.84 * width) / widest, (0.1 * Math.min(width, height)) / (BASELINE - CAP_TOP));
  const lineHeight = LINE_UNITS * scale;
  const band = rows.length * lineHeight + 12 * scale;
  const top = height - band - 0.08 * height;
  const glyphs = rows.flatMap((row, i) => {
    let x = (width - unitsOf(row) * scale) / 2;
    const y = top + 6 * scale + i * lineHeight + 4 * scale;
    return [...row].flatMap((c) => {
      const glyph = glyphOf(c);
      const at = x;
      x += (glyph?.o ?? SPACE_UNITS / 2) * 2 * scale;
      return glyph ? [`<path transform="translate(${r1(at)} ${r1(y)}) scale(${r1(scale * 100) / 100})" d="${glyph.d}"/>`] : [];
    });
  });
  return (
    `<rect x="0" y="${r1(top)}" width="${width}" height="${r1(band)}" fill="#000" fill-opacity="0.5"/>` +
    `<g fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round">${glyphs.join("")}</g>`
  );
}
