// Hello world: no bindings, no routing; what a request costs the local runtime itself. A body PUT to
// /copy/<name> is answered to every GET of that path with the same bytes and Content-Type, so a hot
// path is compared with the runtime moving exactly what the path sends: the same size, and the same
// compression (the local server, like Cloudflare's edge, gzips text types for clients that accept it).
const copies = new Map();

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith("/copy/")) return new Response("hello world\n", { headers: { "content-type": "text/plain" } });
    if (request.method === "PUT") {
      copies.set(pathname, { body: await request.arrayBuffer(), type: request.headers.get("content-type") ?? "application/octet-stream" });
      return new Response(null, { status: 204 });
    }
    const copy = copies.get(pathname);
    if (!copy) return new Response("no copy\n", { status: 404 });
    return new Response(copy.body, { headers: { "content-type": copy.type } });
  },
};
