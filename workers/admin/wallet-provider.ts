/**
 * The wallet provider's HTTP API (Circle Programmable Wallets, GET /v1/w3s/wallets), configured by
 * CIRCLE_API_KEY. Read only: the audit lists wallet addresses and never changes anything there.
 */
export const CIRCLE_WALLETS_URL = "https://api.circle.com/v1/w3s/wallets";
const PAGE_SIZE = 50;
/** Stops a runaway pagination: 200 pages of 50 is 10,000 wallets. */
const MAX_PAGES = 200;

export type WalletList = { ok: true; addresses: string[] } | { ok: false; reason: "unauthorized" | "upstream_error" | "network_error" };

interface WalletsPage {
  data?: { wallets?: { id?: unknown; address?: unknown }[] };
}

/** Every wallet address the provider holds for this account, following the pageAfter cursor. */
export async function listProviderWallets(apiKey: string): Promise<WalletList> {
  const addresses: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = new URL(CIRCLE_WALLETS_URL);
    url.searchParams.set("pageSize", String(PAGE_SIZE));
    if (after) url.searchParams.set("pageAfter", after);
    let res: Response;
    try {
      res = await fetch(url.toString(), { headers: { authorization: `Bearer ${apiKey}`, accept: "application/json" } });
    } catch {
      return { ok: false, reason: "network_error" };
    }
    if (res.status === 401 || res.status === 403) return { ok: false, reason: "unauthorized" };
    if (!res.ok) return { ok: false, reason: "upstream_error" };
    const body = (await res.json().catch(() => ({}))) as WalletsPage;
    const wallets = body.data?.wallets ?? [];
    for (const w of wallets) if (typeof w.address === "string") addresses.push(w.address);
    const last = wallets.at(-1)?.id;
    if (wallets.length < PAGE_SIZE || typeof last !== "string") break;
    after = last;
  }
  return { ok: true, addresses };
}
