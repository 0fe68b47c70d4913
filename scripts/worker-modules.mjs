// The Workers' own TypeScript modules, run in Node: bundled by esbuild with each .wasm as a compiled
// module and each .bin as an ArrayBuffer (as workerd imports them), then imported. For the scripts
// and benches that measure or use the render engine and the watermark outside workerd.
import { readFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");
const inline = (contents) => ({ contents, loader: "js" });
const base64 = (file) => JSON.stringify(readFileSync(file).toString("base64"));

/** The exports of `source`, a TypeScript module whose imports are relative to the repository's root. */
export async function importWorkerModules(source) {
  const { outputFiles } = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "error",
    plugins: [
      {
        name: "workerd-modules",
        setup(b) {
          b.onLoad({ filter: /\.wasm$/ }, (a) => inline(`export default new WebAssembly.Module(Buffer.from(${base64(a.path)}, "base64"));`));
          b.onLoad({ filter: /\.bin$/ }, (a) => inline(`export default Uint8Array.from(Buffer.from(${base64(a.path)}, "base64")).buffer;`));
        },
      },
    ],
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString("base64")}`);
}
