// Objects moved through the RenderStore (kernel/render-contract.ts RenderStoreRpc.fetch) as HTTP
// bodies: written piece by piece from parts, read whole or by a byte range; and many small ones read
// in one call (readObjects).
import { concatBytes } from "../engine/pcm";
import { type ObjectBytes, type ObjectRead, renderStoreObjectUrl, WHOLE_OBJECT_BYTES, type RenderStoreRpc } from "../../kernel/render-contract";

/**
 * Stores `parts` as one object; returns its size. Up to WHOLE_OBJECT_BYTES they cross as one buffer,
 * past it they stream, without joining them into a second copy.
 */
export async function putParts(store: RenderStoreRpc, path: string, parts: Uint8Array[], contentType?: string): Promise<number> {
  const length = parts.reduce((n, p) => n + p.byteLength, 0);
  if (length > WHOLE_OBJECT_BYTES) {
    return putStream(store, path, length, contentType, async (write) => {
      for (const part of parts) await write(part);
    });
  }
  await put(store, path, parts.length === 1 ? parts[0] : concatBytes(parts), contentType);
  return length;
}

/** PUTs `body` at `path` on the RenderStore. */
async function put(store: RenderStoreRpc, path: string, body: Uint8Array | ReadableStream, contentType: string | undefined): Promise<void> {
  const res = await store.fetch(new Request(renderStoreObjectUrl(path), { method: "PUT", body, headers: contentType ? { "content-type": contentType } : {} }));
  if (!res.ok) throw new Error(`storing ${path}: the render store answered ${res.status}`);
}

const SLICE_BYTES = 1 << 20;

/**
 * Stores `length` bytes at `path`, written piece by piece: the bytes cross to the RenderStore as a
 * request body, so no copy of the whole file is made and no message grows with it (a master can be
 * tens of megabytes).
 */
export async function putStream(
  store: RenderStoreRpc,
  path: string,
  length: number,
  contentType: string | undefined,
  fill: (write: (chunk: Uint8Array) => Promise<void>) => Promise<void>,
): Promise<number> {
  const { readable, writable } = new FixedLengthStream(length);
  const writer = writable.getWriter();
  const written = (async () => {
    // In slices, so that the stream flows while a master of many megabytes is written.
    await fill(async (chunk) => {
      for (let at = 0; at < chunk.byteLength; at += SLICE_BYTES) await writer.write(chunk.subarray(at, at + SLICE_BYTES));
    });
    await writer.close();
  })();
  written.catch((err) => writer.abort(err)); // a failed read must not leave the store waiting for bytes
  await Promise.all([put(store, path, readable, contentType), written]);
  return length;
}

/** The object at `path`, whole; null when there is no such object. */
export async function readObject(store: RenderStoreRpc, path: string): Promise<Uint8Array | null> {
  const res = await store.fetch(new Request(renderStoreObjectUrl(path)));
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`${path}: the render store answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * Many small objects, whole or in part, in as few calls as their bytes allow (RenderStoreRpc.readObjects):
 * a render's stored paragraphs' headers, then their encoded units. Read one request each, an edit's
 * forty reads waited on the store's answers behind the voicing and encoding of its changed paragraph
 * on this isolate's thread (bench/results.md "Issue 44: eSpeak's memory, reads in one call"). One
 * larger than a call carries crosses as a body.
 */
export async function readObjects(store: RenderStoreRpc, reads: ObjectRead[]): Promise<(ObjectBytes | null)[]> {
  const out: (ObjectBytes | null)[] = [];
  while (out.length < reads.length) {
    const answered = await store.readObjects(reads.slice(out.length));
    if (answered.length > 0) {
      out.push(...answered);
      continue;
    }
    const { path, range } = reads[out.length];
    if (range) out.push(await readRange(store, path, range.offset, range.length));
    else {
      const bytes = await readObject(store, path);
      out.push(bytes && { bytes, size: bytes.byteLength });
    }
  }
  return out;
}

/** Bytes [from, from + length) of the object at `path` (fewer at its end) and its whole size; null when there is no such object. */
export async function readRange(store: RenderStoreRpc, path: string, from: number, length: number): Promise<{ bytes: Uint8Array; size: number } | null> {
  const res = await store.fetch(new Request(renderStoreObjectUrl(path), { headers: { range: `bytes=${from}-${from + length - 1}` } }));
  if (res.status === 404) return null;
  if (res.status !== 206) throw new Error(`${path}: the render store answered ${res.status}`);
  const size = Number(res.headers.get("content-range")?.split("/")[1]);
  return { bytes: new Uint8Array(await res.arrayBuffer()), size };
}
