// vitest globalSetup: a self-hosted speech server on loopback that speaks the API of Kokoro-FastAPI
// (OpenAI's POST /v1/audio/speech, and GET /v1/audio/voices -> {"voices": [...]}) and answers with real
// speech: eSpeak NG from the npm package text2wav, run in Node, one eSpeak variant per Kokoro voice
// family. Tests reach it at the URL provided as "selfhostedTtsUrl" (http://127.0.0.1:<port>/v1); the
// end-to-end project's render Worker gets it as SELFHOSTED_TTS_BASE_URL (vitest.config.ts).
//
// GET /v1/requests lists the last requests for speech (voice and input), newest last, so a test can
// see what an engine was sent. Other paths under the same server: /nolist/v1 has no voice list (404), /custom/v1 lists a voice the
// catalogue does not name (af_custom) and only two of Kokoro's.
//
// Faults, asked for by a word in the text, so that tests running at once never disturb each other:
//   FAULT_503        answers 503
//   FAULT_HANG       never answers (the client's timeout ends it)
//   FAULT_TRUNCATE   a WAVE header for the whole speech, then half of it, then a clean end
//   FAULT_RESET      Content-Length for the whole file, half of it, then the connection is dropped
//   FAULT_ONCE_<id>  503 for the first request carrying it, speech afterwards (a retry succeeds)
import { createServer } from "node:http";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const ESPEAK = require.resolve("text2wav/lib/espeak-ng");

const KOKORO = ["af_heart", "af_bella", "af_nicole", "af_sarah", "af_sky", "am_adam", "am_michael", "am_eric", "am_liam"];
const KOKORO_GB = ["bf_emma", "bf_isabella", "bf_alice", "bm_george", "bm_lewis", "bm_daniel"];
const SERVERS = {
  "/v1": { voices: [...KOKORO, ...KOKORO_GB] },
  "/nolist/v1": { voices: null },
  "/custom/v1": { voices: ["af_heart", "am_adam", "af_custom"] },
};

/** eSpeak's variant for a Kokoro voice: its language (a: American, b: British) and gender. */
function espeakVoice(voice) {
  const [lang, gender] = [voice[0], voice[1]];
  const base = lang === "b" ? "en" : "en-us";
  return gender === "f" ? `${base}+f3` : base;
}

/** Real speech: a 16-bit mono WAVE at 22,050 Hz, from eSpeak NG in WebAssembly. */
function speak(text, voice) {
  return new Promise((resolve, reject) => {
    delete require.cache[ESPEAK]; // the Emscripten glue keeps global state: a fresh instance per call
    const run = require(ESPEAK);
    const module = {
      arguments: ["-v", espeakVoice(voice), "-w", "/out.wav", "-f", "/in.txt"],
      print() {},
      printErr() {},
      preRun: [() => module.FS.writeFile("/in.txt", new TextEncoder().encode(text))],
      postRun: [
        () => {
          try {
            resolve(Buffer.from(module.FS.readFile("/out.wav")));
          } catch (err) {
            reject(err);
          }
        },
      ],
      onAbort: reject,
    };
    run(module);
  });
}

/** OpenAI's "pcm": raw 16-bit mono at 24 kHz, resampled linearly from the WAVE's samples. */
function pcm24k(wav) {
  const rate = wav.readUInt32LE(24);
  const data = wav.subarray(44);
  const n = Math.floor(data.length / 2);
  const out = Buffer.alloc(Math.floor((n * 24_000) / rate) * 2);
  for (let i = 0; i < out.length / 2; i++) {
    const x = (i * rate) / 24_000;
    const j = Math.min(n - 2, Math.floor(x));
    const f = x - j;
    out.writeInt16LE(Math.round(data.readInt16LE(2 * j) * (1 - f) + data.readInt16LE(2 * j + 2) * f), 2 * i);
  }
  return out;
}

export default async function setup({ provide }) {
  const once = new Set();
  const hanging = new Set();
  const recent = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const prefix = Object.keys(SERVERS).find((p) => url.pathname.startsWith(`${p}/`));
    const json = (status, body) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (!prefix) return json(404, { detail: "Not Found" });
    const { voices } = SERVERS[prefix];
    const path = url.pathname.slice(prefix.length);
    if (req.method === "GET" && path === "/audio/voices") return voices ? json(200, { voices }) : json(404, { detail: "Not Found" });
    if (req.method === "GET" && path === "/requests") return json(200, { requests: recent });
    if (req.method !== "POST" || path !== "/audio/speech") return json(404, { detail: "Not Found" });
    const chunks = [];
    for await (const c of req) chunks.push(c);
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return json(422, { detail: "body is not JSON" });
    }
    const { input, voice, response_format: format = "mp3" } = body;
    recent.push({ voice, input });
    if (recent.length > 100) recent.shift();
    if (typeof input !== "string" || !input.trim()) return json(422, { detail: "input is required" });
    const known = voices ?? [...KOKORO, ...KOKORO_GB];
    if (!known.includes(voice)) return json(400, { detail: { error: "validation_error", message: `Voice '${voice}' not found` } });
    if (format !== "wav" && format !== "pcm") return json(400, { detail: `response_format ${format} is not served here` });

    const fault = /\bFAULT_(503|HANG|TRUNCATE|RESET|ONCE_\w+)\b/.exec(input)?.[1];
    if (fault === "503") return json(503, { detail: "model overloaded" });
    if (fault === "HANG") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (fault?.startsWith("ONCE_") && !once.has(fault)) {
      once.add(fault);
      return json(503, { detail: "warming up" });
    }
    let wav;
    try {
      wav = await speak(input, voice);
    } catch (err) {
      return json(500, { detail: String(err) });
    }
    const audio = format === "pcm" ? pcm24k(wav) : wav;
    const type = format === "pcm" ? "audio/pcm" : "audio/wav";
    if (fault === "TRUNCATE") {
      res.writeHead(200, { "content-type": type });
      return res.end(audio.subarray(0, Math.floor(audio.length / 2)));
    }
    if (fault === "RESET") {
      res.writeHead(200, { "content-type": type, "content-length": String(audio.length) });
      res.write(audio.subarray(0, Math.floor(audio.length / 2)));
      return setTimeout(() => res.destroy(), 20);
    }
    res.writeHead(200, { "content-type": type, "content-length": String(audio.length) }).end(audio);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  provide("selfhostedTtsUrl", `http://127.0.0.1:${server.address().port}/v1`);
  return async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}
