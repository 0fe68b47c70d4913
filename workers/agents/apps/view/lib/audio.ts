// The audio of an article as get_audio_url answers it, and the wait for a render: the view calls the tool
// again through the host until the audio exists. Each call waits on the render server-side (up to
// AGENT_AUDIO_WAIT_SECONDS), so the repeats are long polls; a pause between them keeps a server that answers
// at once (a wait of 0) from being asked in a tight loop.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Host } from "./host";

/** What get_audio_url answers (its output schema, workers/agents/tools/get_audio_url.ts), as far as the view reads it. */
export interface AudioAnswer {
  slug: string;
  state: "ready" | "pending";
  audio_url: string | null;
  listen_seconds: number | null;
}

/** A tool call that answered with an error (isError): its message, for the listener. */
export class ToolFailed extends Error {}

/** Between two calls of a pending render, as an MCP task's pollInterval (docs/agents/tasks.md "Long renders as tasks"). */
const REPEAT_MS = 2000;

/** The message of a tool error: the server's `detail` (its ApiError), else the text it sent. */
function errorOf(result: CallToolResult): string {
  const detail = (result.structuredContent as { detail?: unknown; error?: unknown } | undefined)?.detail;
  if (typeof detail === "string") return detail;
  const text = result.content?.find((c) => c.type === "text");
  return text && "text" in text ? text.text : "the call failed";
}

/** The structured answer of a tool call; throws ToolFailed for a tool error. */
export function answerOf<T>(result: CallToolResult): T {
  if (result.isError || !result.structuredContent) throw new ToolFailed(errorOf(result));
  return result.structuredContent as T;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The audio of `slug` once it exists: get_audio_url is called through the host until it answers ready.
 * `progress` hears the seconds waited so far, about every second.
 */
export async function renderedAudio(host: Host, slug: string, progress: (seconds: number) => void): Promise<AudioAnswer> {
  const began = Date.now();
  const tick = setInterval(() => progress(Math.round((Date.now() - began) / 1000)), 1000);
  progress(0);
  try {
    for (;;) {
      const answer = answerOf<AudioAnswer>(await host.callTool("get_audio_url", { slug }));
      if (answer.state === "ready" && answer.audio_url) return answer;
      await pause(REPEAT_MS);
    }
  } finally {
    clearInterval(tick);
  }
}
