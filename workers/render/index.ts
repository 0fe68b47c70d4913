import { WorkerEntrypoint } from "cloudflare:workers";
import { consumeDeadLetters, consumeRenderBatch, runJob, type RenderPeerRpc } from "./consumer";
import { streamJob } from "./render-stream";
import { encodeStored } from "./pipeline/store";
import { renderText } from "./pipeline/render";
import { voiceStatuses } from "./providers/availability";
import { configuredProviders, providerSetup } from "./providers/registry";
import {
  renderStore,
  type ClaimedJob,
  type LazyFormat,
  type RenderInput,
  type RenderResult,
  type RenderRpc,
  type VoiceCatalogueStatus,
} from "../kernel/render-contract";
import { renderConfig } from "./config";
import { useC2pa } from "./pipeline/c2pa";
import { useWatermark } from "./pipeline/watermark";
import { decodeOggOpus } from "./engine/opus-decode";
import { MASTER_SAMPLE_RATE } from "../kernel/audio-objects";

const DEAD_LETTER_QUEUE = "narration-render-dlq";

/**
 * The render Worker: consumes the render Queue and its dead-letter queue. It serves no HTTP route:
 * production sets workers_dev = false and no routes; under `wrangler dev` its 404 tells the start
 * script that it is up and its configuration valid. Every entry point checks the configuration first
 * (once per isolate), so a missing binding or bad key fails with its name.
 */
export default {
  fetch(_request, env) {
    renderConfig(env);
    return new Response("not found", { status: 404 });
  },
  async queue(batch, env) {
    const { RENDER_PEER } = renderConfig(env);
    useC2pa(env);
    useWatermark(env);
    if (batch.queue === DEAD_LETTER_QUEUE) await consumeDeadLetters(batch, env);
    else await consumeRenderBatch(batch, env, configuredProviders(env), RENDER_PEER as RenderPeerRpc | undefined);
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
    useWatermark(this.env);
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

  async stream(jobId: string): Promise<ReadableStream<Uint8Array> | null> {
    renderConfig(this.env);
    useC2pa(this.env);
    // A stream can be the isolate's first render: the paragraphs it voices and stores are marked too.
    useWatermark(this.env);
    return streamJob(renderStore(this.env), jobId, configuredProviders(this.env), (work) => this.ctx.waitUntil(work));
  }

  async decodeOpus(bytes: Uint8Array, maxSamples: number): Promise<Int16Array | null> {
    return decodeOggOpus(bytes, MASTER_SAMPLE_RATE, maxSamples);
  }
}

/**
 * The second render process of one machine (`npm start`: wrangler.toml's `peer` environment, bound to
 * the first as RENDER_PEER): it renders the jobs the first one's consumer hands it, so that both cores
 * narrate. On Cloudflare the Queue runs consumers side by side itself, and nothing binds a peer.
 */
export class RenderPeer extends WorkerEntrypoint<Env> implements RenderPeerRpc {
  async run(claim: ClaimedJob): Promise<void> {
    renderConfig(this.env);
    useC2pa(this.env);
    useWatermark(this.env);
    // The smoke counts these lines: a peer that renders nothing would pass unnoticed otherwise.
    console.log(`render job ${claim.jobId} runs in the second render process`);
    await runJob(renderStore(this.env), claim, configuredProviders(this.env), { later: (work) => this.ctx.waitUntil(work) });
  }
}
