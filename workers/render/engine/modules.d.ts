// The engine's .wasm and .bin files are typed by worker-configuration.d.ts (wrangler's default module rules).
/** The patched Emscripten glue of eSpeak NG (scripts/vendor-engine.mjs): call it with a Module object. */
declare module "*/espeak-ng.cjs" {
  const run: (module: object) => unknown;
  export default run;
}
