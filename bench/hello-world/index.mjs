// Hello world: no bindings, no routing; what a request costs the local runtime itself.
export default {
  fetch: () => new Response("hello world\n", { headers: { "content-type": "text/plain" } }),
};
