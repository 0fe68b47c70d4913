import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { sha256Hex } from "../../workers/core/crypto";
import { router } from "../../workers/router";
import { testVars } from "../vars";
import type { RenderInput, RenderResult, RenderRpc, VoiceCatalogueStatus } from "../../workers/kernel/render-contract";
import { audioObjectPath } from "../../workers/kernel/audio-objects";

/**
 * Test support: a RENDER binding that writes recognisable bytes to the real local R2 and D1,
 * and records its calls, for tests of the API side that do not exercise the render Worker.
 */
export class FakeRender implements RenderRpc {
  readonly renders: RenderInput[] = [];
  readonly encodes: [string, string][] = [];

  async ping() {
    return "ok";
  }

  async render(input: RenderInput): Promise<RenderResult> {
    this.renders.push(input);
    const voice = input.voice ?? "default-voice";
    const key = await sha256Hex(`fake|${voice}|${input.text}`);
    const known = await env.DB.prepare("SELECT 1 FROM audio_objects WHERE key = ?").bind(key).first();
    if (!known) {
      const bytes = fakeBytes(key, "mp3");
      await env.AUDIO.put(audioObjectPath(key, "mp3"), bytes);
      await env.DB.prepare("INSERT INTO audio_objects (key, provider, voice, duration_seconds, mp3_bytes) VALUES (?, 'fake', ?, 2.5, ?)")
        .bind(key, voice, bytes.length)
        .run();
    }
    return {
      key,
      provider: "fake",
      voice,
      quality: "neural",
      requested_voice: input.voice ?? null,
      fallback: false,
      cached: Boolean(known),
      duration_seconds: 2.5,
      // One paragraph, voiced unless it was known.
      characters_synthesized: known ? 0 : input.text.length,
      paragraphs_reused: known ? 1 : 0,
      paragraphs_encoded: known ? 0 : 1,
    };
  }

  async voices(): Promise<VoiceCatalogueStatus> {
    return { default_voice: null, default_provider: null, voices: [] };
  }

  /** No job streams here: the API side answers as for a job that is finished or gone. */
  async stream(_jobId: string): Promise<ReadableStream<Uint8Array> | null> {
    return null;
  }

  /** No decoder here: the watermark tests use the real render Worker. */
  async decodeOpus(): Promise<Int16Array | null> {
    return null;
  }

  async encode(key: string, format: "opus" | "wav") {
    this.encodes.push([key, format]);
    const known = await env.DB.prepare("SELECT 1 FROM audio_objects WHERE key = ?").bind(key).first();
    if (!known) return null;
    const bytes = fakeBytes(key, format);
    await env.AUDIO.put(audioObjectPath(key, format), bytes);
    return { bytes: bytes.length };
  }
}

/** 1,000 deterministic bytes per key and format, so ranges can be checked exactly. */
export function fakeBytes(key: string, format: string): Uint8Array {
  const seed = new TextEncoder().encode(`${format}:${key}`);
  return Uint8Array.from({ length: 1000 }, (_, i) => (seed[i % seed.length] + i) & 0xff);
}

/** Calls the API Worker's router with `render` as the RENDER binding; waits for waitUntil work. */
export async function callWith(render: RenderRpc | null, path: string, init: RequestInit = {}, extraEnv: Record<string, string> = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("cf-connecting-ip", "203.0.113.9");
  const ctx = createExecutionContext();
  const url = new URL(path, testVars.BASE_URL);
  const request = new Request(url, { ...init, headers });
  const res = await router.fetch(request, { ...env, ...extraEnv, ...(render ? { RENDER: render } : {}) }, ctx, url);
  await waitOnExecutionContext(ctx);
  return res;
}
