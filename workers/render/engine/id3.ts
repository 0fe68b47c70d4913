// A minimal ID3v2.4 tag writer (https://id3.org/id3v2.4.0-structure, id3v2.4.0-frames): text frames,
// TXXX and COMM, all UTF-8 (encoding 3), and GEOB (where C2PA puts its manifest), no padding, no extended header. Written here rather than
// taken from npm: browser-id3-writer (6.4) writes ID3v2.3 only and builds tag and audio as one new
// buffer, a second copy of a long render's MP3, which the render keeps as parts to avoid; node-id3
// (0.2.9) needs Node's Buffer and iconv-lite and is no longer kept up. A tag is a header and frames.

/** The text frames a narration uses: title, lead performer, publisher, album, copyright, encoder settings, language. */
type TextFrameId = "TIT2" | "TPE1" | "TPUB" | "TALB" | "TCOP" | "TSSE" | "TLAN";

/** One frame: a text frame ("TIT2", value), a user text frame ("TXXX", description, value) or a comment ("COMM", description, text). */
export type Id3Frame =
  | { id: TextFrameId; text: string }
  | { id: "TXXX"; description: string; text: string }
  | { id: "COMM"; language?: string; description: string; text: string }
  | { id: "GEOB"; mimeType: string; filename: string; description: string; data: Uint8Array };

const UTF8 = 3;
const utf8 = (s: string) => new TextEncoder().encode(s);

/** A 28-bit integer as four 7-bit bytes (ID3v2.4 §6.2: sizes of the tag and of every frame). */
function synchsafe(n: number): number[] {
  if (n >= 2 ** 28) throw new Error("ID3 size over 256 MB");
  return [(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f];
}

function frameBody(frame: Id3Frame): Uint8Array[] {
  // GEOB (id3v2.4.0-frames §4.15): encoding, MIME type (Latin-1), file name, description, the object.
  if (frame.id === "GEOB")
    return [
      Uint8Array.of(0),
      utf8(frame.mimeType),
      Uint8Array.of(0),
      utf8(frame.filename),
      Uint8Array.of(0),
      utf8(frame.description),
      Uint8Array.of(0),
      frame.data,
    ];
  if (frame.id === "TXXX") return [Uint8Array.of(UTF8), utf8(frame.description), Uint8Array.of(0), utf8(frame.text)];
  if (frame.id === "COMM")
    return [Uint8Array.of(UTF8), utf8((frame.language ?? "eng").slice(0, 3).padEnd(3, " ")), utf8(frame.description), Uint8Array.of(0), utf8(frame.text)];
  return [Uint8Array.of(UTF8), utf8(frame.text)];
}

/** The bytes of an ID3v2.4 tag holding `frames`, to go before the first MPEG frame. */
export function id3v24(frames: Id3Frame[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const frame of frames) {
    if (!/^[A-Z0-9]{4}$/.test(frame.id)) throw new Error(`not an ID3v2.4 frame id: ${frame.id}`);
    const body = frameBody(frame);
    const size = body.reduce((n, b) => n + b.length, 0);
    parts.push(Uint8Array.from([...utf8(frame.id), ...synchsafe(size), 0, 0]), ...body);
  }
  const size = parts.reduce((n, p) => n + p.length, 0);
  const tag = new Uint8Array(10 + size);
  tag.set([0x49, 0x44, 0x33, 4, 0, 0, ...synchsafe(size)]); // "ID3", version 2.4.0, no flags
  let at = 10;
  for (const p of parts) {
    tag.set(p, at);
    at += p.length;
  }
  return tag;
}
