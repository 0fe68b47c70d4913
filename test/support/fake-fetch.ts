import type { FetchFn } from "../../workers/render/providers/http";

/** A recorded outbound request, as a provider adapter sent it. */
export interface SentRequest {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: string;
}

/** Test double for the network boundary: records every request and answers with `respond`. */
export function fakeFetch(respond: () => Response | Promise<Response>): { fetch: FetchFn; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  return {
    sent,
    fetch: async (url, init) => {
      sent.push({
        url,
        method: init.method,
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        body: String(init.body),
      });
      return respond();
    },
  };
}

/** A far end that never answers: the request only ends when the caller's signal aborts it. */
export const silentFetch: FetchFn = (_url, init) => new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));

/** `seconds` of a 440 Hz tone as 16-bit little-endian PCM: stands in for speech from a provider. */
export function tonePcm16(seconds: number, sampleRate: number): Uint8Array {
  const out = new Uint8Array(Math.round(seconds * sampleRate) * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < out.length / 2; i++) view.setInt16(2 * i, Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), true);
  return out;
}
