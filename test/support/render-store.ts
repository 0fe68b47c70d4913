import { exports } from "cloudflare:workers";
import { renderStore } from "../../workers/kernel/render-contract";

/**
 * The render Worker's `env` in tests that call its modules directly: STORE is the API Worker's own
 * RenderStore entrypoint, reached over RPC as the render Worker reaches it.
 */
export const renderEnv = { STORE: (exports as unknown as Record<string, unknown>).RenderStore };

/** The RenderStore of renderEnv. */
export const store = renderStore(renderEnv);
