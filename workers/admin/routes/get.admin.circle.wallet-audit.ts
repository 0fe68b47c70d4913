import { config } from "../../core/config";
import { isNotNull } from "drizzle-orm";
import * as v from "valibot";
import { ApiError } from "../../core/errors";
import { route } from "../../core/route";
import { named } from "../../core/schema-registry";
import { database, listeners } from "../../db/index";
import { listProviderWallets } from "../wallet-provider";

/** docs/rules.md "Rules" 2: the audit shows at most 20 orphan addresses. */
const ORPHAN_SAMPLE = 20;

const WalletAudit = named(
  "WalletAudit",
  v.object({
    provider_total: v.pipe(v.number(), v.description("Wallets the provider holds for the platform.")),
    db_total: v.pipe(v.number(), v.description("Distinct wallet addresses held by listeners.")),
    orphan_count: v.pipe(v.number(), v.description("Provider wallets that no listener references.")),
    orphan_sample: v.pipe(v.array(v.string()), v.description("Up to 20 orphan addresses, sorted.")),
  }),
);

export const walletAudit = route({
  method: "GET",
  path: "/v1/admin/circle/wallet-audit",
  tag: "admin",
  summary: "Compare the wallet provider's wallets with listeners' wallet addresses (read only)",
  auth: "admin",
  responses: {
    200: { description: "The audit", schema: WalletAudit },
    503: { description: "CIRCLE_API_KEY is not configured, or the provider failed" },
  },
  async handle({ env }) {
    const apiKey = config(env).CIRCLE_API_KEY;
    if (!apiKey) throw new ApiError("unavailable", "the wallet provider is not configured (CIRCLE_API_KEY)");
    const [provider, rows] = await Promise.all([
      listProviderWallets(apiKey),
      database(env).select({ address: listeners.walletAddress }).from(listeners).where(isNotNull(listeners.walletAddress)),
    ]);
    if (!provider.ok) throw new ApiError("unavailable", `the wallet provider failed (${provider.reason})`, { "Retry-After": "60" });
    // EVM addresses are case-insensitive (EIP-55 case is only a checksum).
    const known = new Set(rows.map((r) => r.address!.toLowerCase()));
    const providerAddresses = [...new Set(provider.addresses.map((a) => a.toLowerCase()))];
    const orphans = providerAddresses.filter((a) => !known.has(a)).sort();
    const out: v.InferOutput<typeof WalletAudit> = {
      provider_total: providerAddresses.length,
      db_total: known.size,
      orphan_count: orphans.length,
      orphan_sample: orphans.slice(0, ORPHAN_SAMPLE),
    };
    return Response.json(out, { headers: { "Cache-Control": "no-store" } });
  },
});
