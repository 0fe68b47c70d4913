// A minimal Ogg page writer (RFC 3533) for one logical stream. One mono Opus stream needs only
// paging and a CRC, so this avoids bringing a general muxing library into the Worker.

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32 (RFC 3533 §6): polynomial 0x04c11db7, not reflected, initial value 0, no final xor. */
function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ bytes[i]) & 0xff]) >>> 0;
  return crc;
}

/** Header type flags (RFC 3533 §6). */
export const BEGIN_OF_STREAM = 2;
export const END_OF_STREAM = 4;

/** One page holding whole packets (at most 255 lacing values in all). */
export function oggPage(packets: Uint8Array[], granule: bigint, serial: number, sequence: number, flags: number): Uint8Array {
  const lacing: number[] = [];
  for (const p of packets) {
    for (let n = p.length; ; n -= 255) {
      lacing.push(Math.min(n, 255));
      if (n < 255) break;
    }
  }
  if (lacing.length > 255) throw new Error("ogg page: too many segments");
  const bodyLength = packets.reduce((n, p) => n + p.length, 0);
  const page = new Uint8Array(27 + lacing.length + bodyLength);
  const view = new DataView(page.buffer);
  page.set([0x4f, 0x67, 0x67, 0x53], 0); // "OggS"
  page[4] = 0; // version
  page[5] = flags;
  view.setBigInt64(6, granule, true);
  view.setUint32(14, serial, true);
  view.setUint32(18, sequence, true);
  page[26] = lacing.length;
  page.set(lacing, 27);
  let offset = 27 + lacing.length;
  for (const p of packets) {
    page.set(p, offset);
    offset += p.length;
  }
  view.setUint32(22, oggCrc(page), true); // computed with the CRC field zero
  return page;
}

/** Lacing values a packet takes. */
export const segmentsFor = (packetLength: number) => Math.floor(packetLength / 255) + 1;
