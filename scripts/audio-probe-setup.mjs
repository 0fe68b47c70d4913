// vitest globalSetup: a loopback HTTP service through which tests running in workerd check rendered
// files with ffprobe (codec, duration, tags: an MP3's ID3 frames, an Opus file's Vorbis comments) and ffmpeg's ebur128 filter (integrated loudness, true peak),
// or find their pauses with ffmpeg's silencedetect filter, or put them through a codec (/transform, for
// the watermark). Tests POST the file's bytes to the URL provided as "audioProbeUrl" (/probe), or to its
// siblings /silences and /transform.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

async function probe(file) {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-show_entries",
    "stream=codec_name,sample_rate,channels:stream_tags:format=format_name,duration:format_tags",
    "-of",
    "json",
    file,
  ]);
  const info = JSON.parse(stdout);
  // ebur128 prints its summary on stderr: "I: -16.0 LUFS" and, with peak=true, "Peak: -1.2 dBFS" (true peak).
  const { stderr } = await run("ffmpeg", ["-nostats", "-hide_banner", "-i", file, "-filter_complex", "ebur128=peak=true", "-f", "null", "-"], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const summary = stderr.slice(stderr.lastIndexOf("Summary:"));
  const number = (pattern) => Number(pattern.exec(summary)?.[1]);
  return {
    format: info.format.format_name,
    duration: Number(info.format.duration),
    codec: info.streams[0]?.codec_name,
    sample_rate: Number(info.streams[0]?.sample_rate),
    channels: info.streams[0]?.channels,
    integrated_lufs: number(/I:\s+(-?[\d.]+) LUFS/),
    true_peak_dbtp: number(/Peak:\s+(-?[\d.]+|-inf) dBFS/),
    tags: { ...info.format.tags, ...info.streams[0]?.tags },
  };
}

/**
 * The silences ffmpeg's silencedetect finds in the decoded file: stretches below `noise` dBFS lasting
 * at least `min` seconds, as [start, end] in seconds of the decoded stream. A silence still open at
 * the end of the file has no silence_end line and ends at the file's end.
 */
async function silences(file, noise, min) {
  const { stderr } = await run("ffmpeg", ["-nostats", "-hide_banner", "-i", file, "-af", `silencedetect=noise=${noise}dB:d=${min}`, "-f", "null", "-"], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const found = [];
  for (const [, kind, at] of stderr.matchAll(/silence_(start|end): (-?[\d.]+)/g)) {
    if (kind === "start") found.push([Number(at), null]);
    else if (found.length) found[found.length - 1][1] = Number(at);
  }
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]);
  return found.map(([start, end]) => [start, end ?? Number(stdout)]);
}

/**
 * What a recording goes through on its way to a listener, for the watermark tests (docs/narration.md
 * "The watermark"): each is an ffmpeg round trip that ends as a 24 kHz mono 16-bit WAV.
 */
const TRANSFORMS = {
  "mp3-32k": { codec: ["-c:a", "libmp3lame", "-b:a", "32k"], ext: "mp3" },
  "opus-24k": { codec: ["-c:a", "libopus", "-b:a", "24k"], ext: "opus" },
  "volume-6db": { codec: ["-af", "volume=-6dB", "-c:a", "pcm_s16le"], ext: "wav" },
  none: { codec: ["-c:a", "pcm_s16le"], ext: "wav" },
};

/** `file` through the transform `name`, decoded to a 24 kHz mono WAV: its bytes. */
async function transform(file, name) {
  const t = TRANSFORMS[name];
  if (!t) throw new Error(`no transform ${name}`);
  const coded = `${file}.${t.ext}`;
  const wav = `${file}.out.wav`;
  try {
    await run("ffmpeg", ["-v", "error", "-y", "-i", file, ...t.codec, coded]);
    await run("ffmpeg", ["-v", "error", "-y", "-i", coded, "-ac", "1", "-ar", "24000", "-c:a", "pcm_s16le", wav]);
    return await readFile(wav);
  } finally {
    await rm(coded, { force: true });
    await rm(wav, { force: true });
  }
}

export default async function setup({ provide }) {
  const dir = await mkdtemp(path.join(tmpdir(), "audio-probe-"));
  let n = 0;
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const url = new URL(req.url, "http://x");
    const file = path.join(dir, `${n++}.${url.searchParams.get("ext") ?? "bin"}`);
    try {
      await writeFile(file, Buffer.concat(chunks));
      if (url.pathname === "/transform") {
        res.writeHead(200, { "content-type": "audio/wav" }).end(await transform(file, url.searchParams.get("to")));
        return;
      }
      const result =
        url.pathname === "/silences" ? await silences(file, Number(url.searchParams.get("noise")), Number(url.searchParams.get("min"))) : await probe(file);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
    } catch (err) {
      res.writeHead(500).end(String(err?.stderr || err));
    } finally {
      await rm(file, { force: true });
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  provide("audioProbeUrl", `http://127.0.0.1:${server.address().port}/probe`);
  return async () => {
    server.close();
    await rm(dir, { recursive: true, force: true });
  };
}
