import { ApiError } from "../core/errors";
import type { RenderRpc } from "../kernel/render-contract";

/**
 * The render Worker's RPC surface (service binding RENDER). `wrangler types` types a service
 * binding without its entrypoint's methods, so this is the one place that names them.
 */
export function renderService(env: object): RenderRpc {
  const binding = (env as { RENDER?: RenderRpc }).RENDER;
  if (!binding) throw new ApiError("unavailable", "the render service is not bound");
  return binding;
}
