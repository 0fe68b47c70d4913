// The Japanese readings dictionary of the offline engine (docs/narration.md "Japanese in kanji"):
// @patdx/kuromoji's IPADIC files, cut down to what a reading needs, written beside the eSpeak
// language data (workers/render/engine/vendor/espeak/) so that npm start's seed, the deploy script and
// the tests put it in R2 with them. As shipped, the dictionary takes about 100 MB once unpacked
// (buffers padded to powers of two, and every entry's part of speech, inflection and base form, 36 MB
// of strings): more than an isolate's 128 MB leaves beside a render. Here each entry keeps only its
// reading (kuromoji reads the ninth field: ",,,,,,,,ヨミ", the same string shared by every entry that
// reads alike) and the padding goes; the map from the trie to the entries, which kuromoji unpacks into
// an object of 325,871 arrays (65 MB of heap), is written as two Int32Arrays the render Worker reads
// as they are (targets.dat: [keys + 1][start of each key's ids..., end][ids...]), and kuromoji is given
// an empty one. The lattice (trie, costs, unknown-word rules) is as shipped.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const DICT = path.resolve("node_modules/@patdx/kuromoji/dict");
/** Bytes of one token-info entry (kuromoji's TokenInfoDictionary.put): left id, right id, cost (int16 each), feature offset (int32). */
const ENTRY = 10;

const read = (name) => zlib.gunzipSync(fs.readFileSync(path.join(DICT, `${name}.dat.gz`)));

/** `bytes` without the zeros after its last non-zero byte (kuromoji reads past an end as 0), kept whole 32-bit words. */
function trimmed(bytes) {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return bytes.subarray(0, Math.ceil(end / 4) * 4);
}

/**
 * The target map (trie id -> token-info ids) without its padding, and the token-info ids it names
 * (byte offsets in tid.dat): [count][key, n, n ids]..., where every key has at least one id.
 */
function targets(padded) {
  const keys = new Map();
  const ids = [];
  for (let p = 4; p + 8 <= padded.length; ) {
    const count = padded.readInt32LE(p + 4);
    if (count === 0) break;
    const list = [];
    for (let i = 0; i < count; i++) list.push(padded.readInt32LE(p + 8 + 4 * i));
    keys.set(padded.readInt32LE(p), list);
    ids.push(...list);
    p += 8 + 4 * count;
  }
  const size = [...keys.keys()].reduce((a, b) => Math.max(a, b), 0) + 1;
  const table = new Int32Array(1 + size + 1 + ids.length);
  table[0] = size;
  let at = 0;
  for (let key = 0; key < size; key++) {
    table[1 + key] = at;
    for (const id of keys.get(key) ?? []) table[2 + size + at++] = id;
  }
  table[1 + size] = at;
  return { table: Buffer.from(table.buffer), ids };
}

/**
 * Writes the reduced dictionary as `<prefix><name>.dat.gz` into `out`; returns the prefix, which names
 * @patdx/kuromoji's version (the render Worker asks for the files by these names), and the files' names.
 */
export function vendorReadings(out) {
  const { version } = JSON.parse(fs.readFileSync(path.resolve("node_modules/@patdx/kuromoji/package.json"), "utf8"));
  const prefix = `ja-readings-${version}-`;
  const tid = read("tid");
  const pos = read("tid_pos");
  const targetMap = targets(read("tid_map"));
  const entries = targetMap.ids.reduce((a, b) => Math.max(a, b), 0) / ENTRY + 1;
  const tidOut = Buffer.alloc(entries * ENTRY);
  tid.copy(tidOut, 0, 0, tidOut.length);
  const strings = new Map();
  const chunks = [];
  let size = 0;
  for (let e = 0; e < entries; e++) {
    const at = tid.readInt32LE(e * ENTRY + 6);
    const features = pos.toString("utf8", at, pos.indexOf(0, at)).split(",");
    const reduced = `,,,,,,,,${features[8] ?? ""}`;
    let offset = strings.get(reduced);
    if (offset === undefined) {
      offset = size;
      strings.set(reduced, offset);
      const bytes = Buffer.from(`${reduced}\0`);
      chunks.push(bytes);
      size += bytes.length;
    }
    tidOut.writeInt32LE(offset, e * ENTRY + 6);
  }
  const files = {
    base: read("base"),
    check: read("check"),
    cc: read("cc"),
    tid: tidOut,
    tid_pos: Buffer.concat(chunks),
    tid_map: Buffer.alloc(4),
    targets: targetMap.table,
  };
  for (const name of ["unk", "unk_pos", "unk_map", "unk_char", "unk_compat", "unk_invoke"]) files[name] = trimmed(read(name));
  for (const [name, bytes] of Object.entries(files)) {
    fs.writeFileSync(path.join(out, `${prefix}${name}.dat.gz`), zlib.gzipSync(bytes, { level: 9 }));
  }
  return { prefix, files: Object.keys(files).map((name) => `${prefix}${name}.dat.gz`) };
}
