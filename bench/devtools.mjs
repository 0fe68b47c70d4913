// The API isolate's DevTools protocol, as wrangler serves it on `--inspector-port` (scripts/local.mjs
// startWorker): the profiler (bench/profile.mjs) and the heap figures of the soak (soak.bench.mjs).
import WebSocket from "ws";

/** A session with the Worker behind `inspectorPort`: `send(method, params)` resolves with the result. */
export async function devtools(inspectorPort) {
  const [target] = await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let id = 0;
  const pending = new Map();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data));
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`${message.error.message}`));
    else waiter.resolve(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        pending.set(++id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}
