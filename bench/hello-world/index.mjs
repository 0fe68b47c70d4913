// Hello world: no bindings, no routing; what a request costs the local runtime itself. `?bytes=N`
// answers N bytes instead, so a hot path with a large body (a feed, an audio file) is compared with
// the runtime moving the same number of bytes.
const bodies = new Map();

export default {
  fetch(request) {
    const size = Number(new URL(request.url).searchParams.get("bytes") ?? 0);
    if (!size) return new Response("hello world\n", { headers: { "content-type": "text/plain" } });
    if (!bodies.has(size)) bodies.set(size, new Uint8Array(size).fill(120));
    return new Response(bodies.get(size), { headers: { "content-type": "application/octet-stream" } });
  },
};
