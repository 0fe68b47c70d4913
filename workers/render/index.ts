import { WorkerEntrypoint } from "cloudflare:workers";
import { consumeDeadLetters, consumeRenderBatch } from "./consumer";
import { encodeStored } from "./pipeline/store";
import { renderText } from "./pipeline/render";
import { voiceStatuses } from "./providers/availability";
import { configuredProviders, providerSetup } from "./providers/registry";
import { renderStore, type LazyFormat, type RenderInput, type RenderResult, type RenderRpc, type VoiceCatalogueStatus } from "../kernel/render-contract";
import { renderConfig } from "./config";
import { measureEngine } from "./measure";
import { useC2pa } from "./pipeline/c2pa";

const DEAD_LETTER_QUEUE = "narration-render-dlq";

/**
 * The render Worker: consumes the render Queue and its dead-letter queue. Its only HTTP route is the
 * engine measurement of `npm run bench` (POST /bench with text): production sets workers_dev = false
 * and no routes, so it is reachable only under `wrangler dev`. Every entry point checks the
 * configuration first (once per isolate), so a missing binding or bad key fails with its name.
 */
export default {
  async fetch(request, env) {
    renderConfig(env);
    if (request.method !== "POST" || new URL(request.url).pathname !== "/bench") return new Response("not found", { status: 404 });
    return Response.json(await measureEngine(await request.text()));
  },
  async queue(batch, env) {
    renderConfig(env);
    useC2pa(env);
    if (batch.queue === DEAD_LETTER_QUEUE) await consumeDeadLetters(batch, env);
    else await consumeRenderBatch(batch, env, configuredProviders(env));
  },
} satisfies ExportedHandler<Env>;

/** Synchronous renders and lazy encodings for the API Worker (service binding RENDER). */
export class RenderService extends WorkerEntrypoint<Env> implements RenderRpc {
  async ping(): Promise<string> {
    renderConfig(this.env);
    return "ok";
  }

  async render(input: RenderInput): Promise<RenderResult> {
    renderConfig(this.env);
    useC2pa(this.env);
    return renderText(renderStore(this.env), input, configuredProviders(this.env));
  }

  async voices(): Promise<VoiceCatalogueStatus> {
    renderConfig(this.env);
    const { synthesizers, missing } = providerSetup(this.env);
    return voiceStatuses(synthesizers, missing);
  }

  async encode(key: string, format: LazyFormat): Promise<{ bytes: number } | null> {
    renderConfig(this.env);
    useC2pa(this.env);
    return encodeStored(renderStore(this.env), key, format);
  }
}
