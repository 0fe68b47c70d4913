import { accountPage, deleteConfirmPage, deletePage, rotatePage } from "./account";
import { floPage, moveFloItem, saveFloOrder } from "./flo";
import { overviewPage, saveDigest, saveVerticals, subscribePage } from "./overview";
import { LISTEN_PATHS } from "./paths";
import { queuePage } from "./queue";

type Page = (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;

/** The listener's pages (docs/listeners.md "Listener pages"), by method and path. */
export const LISTEN_PAGES: Record<string, Page> = {
  [`GET ${LISTEN_PATHS.home}`]: overviewPage,
  [`POST ${LISTEN_PATHS.subscribe}`]: subscribePage,
  [`POST ${LISTEN_PATHS.verticals}`]: saveVerticals,
  [`POST ${LISTEN_PATHS.digest}`]: saveDigest,
  [`GET ${LISTEN_PATHS.queue}`]: queuePage,
  [`GET ${LISTEN_PATHS.flo}`]: floPage,
  [`POST ${LISTEN_PATHS.floOrder}`]: saveFloOrder,
  [`POST ${LISTEN_PATHS.floMove}`]: moveFloItem,
  [`GET ${LISTEN_PATHS.account}`]: accountPage,
  [`POST ${LISTEN_PATHS.rotate}`]: rotatePage,
  [`GET ${LISTEN_PATHS.remove}`]: deleteConfirmPage,
  [`POST ${LISTEN_PATHS.remove}`]: deletePage,
};
