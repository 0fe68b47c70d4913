import { inject } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    selfhostedTtsUrl: string;
  }
}

/**
 * The loopback self-hosted speech server of scripts/selfhosted-tts-setup.mjs (Kokoro-FastAPI's API,
 * real eSpeak speech): its base URL, or that of one of its variants ("nolist": no voice list;
 * "custom": lists af_custom, af_heart and am_adam only; "redirect": its voice list is a 302 to the main one's).
 */
export function selfhostedTtsUrl(variant?: "nolist" | "custom" | "redirect"): string {
  const url = new URL(inject("selfhostedTtsUrl"));
  if (variant) url.pathname = `/${variant}${url.pathname}`;
  return url.toString().replace(/\/$/, "");
}

/** Real speech from the loopback server, as OpenAI's `pcm` (24 kHz) or a WAVE file (22,050 Hz). */
export async function realSpeech(text: string, format: "pcm" | "wav", voice = "af_heart"): Promise<Uint8Array> {
  const res = await fetch(`${selfhostedTtsUrl()}/audio/speech`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "kokoro", input: text, voice, response_format: format }),
  });
  if (!res.ok) throw new Error(`the loopback speech server answered ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
