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
//   FAULT_REDIRECT_<id>  302 to /private/audio?from=<id> on this server, which stands for a private
//                    address (it is one: loopback) and answers real speech to whoever follows; each
//                    visit is listed at GET /v1/requests as {"redirected": "<id>"}
//   FAULT_HUGE       a WAVE header, then 25 MiB of silence streamed without a Content-Length
// /redirect/v1 answers GET /audio/voices with a 302 to /v1/audio/voices.
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

/** Calls `done` once, at the response's next drain or its close, and leaves no listener behind. */
function setDrainOrClose(res, done) {
  const both = () => {
    res.off("drain", both).off("close", both);
    done();
  };
  res.on("drain", both).on("close", both);
}

/** A 16-bit mono WAVE at 22,050 Hz of `bytes` of silence, streamed in chunks until done or the client leaves. */
async function streamSilence(res, bytes) {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + bytes, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(22_050, 24);
  header.writeUInt32LE(44_100, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(bytes, 40);
  res.writeHead(200, { "content-type": "audio/wav" });
  res.write(header);
  const chunk = Buffer.alloc(64 * 1024);
  for (let sent = 0; sent < bytes && !res.destroyed; sent += chunk.length) {
    if (!res.write(chunk)) await new Promise((resolve) => setDrainOrClose(res, resolve));
  }
  res.end();
}

export default async function setup({ provide }) {
  const once = new Set();
  const hanging = new Set();
  const recent = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/private/audio") {
      recent.push({ redirected: url.searchParams.get("from") });
      const wav = await speak("You followed a redirect.", "af_heart");
      return res.writeHead(200, { "content-type": "audio/wav", "content-length": String(wav.length) }).end(wav);
    }
    if (url.pathname === "/redirect/v1/audio/voices") return res.writeHead(302, { location: "/v1/audio/voices" }).end();
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

    const fault = /\bFAULT_(503|HANG|TRUNCATE|RESET|HUGE|ONCE_\w+|REDIRECT_\w+)\b/.exec(input)?.[1];
    if (fault === "503") return json(503, { detail: "model overloaded" });
    if (fault?.startsWith("REDIRECT_")) {
      const location = `http://127.0.0.1:${server.address().port}/private/audio?from=${fault.slice("REDIRECT_".length)}`;
      return res.writeHead(302, { location }).end();
    }
    if (fault === "HUGE") return streamSilence(res, 25 * 1024 * 1024);
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
