// A wallet agent paying for get_audio_url with x402 (docs/agents/payments.md "Paying agents"), against `npm start`:
//   node scripts/x402-wallet-agent.mjs [slug]          (PORT or BASE_URL name another address)
// It makes a throwaway key, asks for the audio, reads the 402's PAYMENT-REQUIRED, signs the EIP-3009
// authorization with the official x402 client packages, retries with PAYMENT-SIGNATURE and prints the
// audio URL and the PAYMENT-RESPONSE. With X402_FACILITATOR_URL=local no money moves: the throwaway
// wallet holds no USDC, and the local facilitator records the settlement as "local:<id>".
import { x402Client } from "@x402/core/client";
import { x402HTTPClient } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const base = (process.env.BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`).replace(/\/+$/, "");

async function firstSlug() {
  const res = await fetch(`${base}/v1/stories/feed?limit=1&audio_ready_only=false`);
  if (!res.ok) throw new Error(`GET /v1/stories/feed answered ${res.status}: is \`npm start\` running at ${base}?`);
  const { items } = await res.json();
  if (!items?.length) throw new Error("no article to ask for: the demo articles are seeded by `npm start`");
  return items[0].slug;
}

const slug = process.argv[2] ?? (await firstSlug());
const account = privateKeyToAccount(generatePrivateKey());
const http = new x402HTTPClient(new x402Client().register("eip155:*", new ExactEvmScheme(account)));
const url = `${base}/v1/agent/articles/${encodeURIComponent(slug)}/audio`;
console.log(`wallet ${account.address} (throwaway) asks for ${url}`);

const unpaid = await fetch(url);
if (unpaid.status !== 402) throw new Error(`expected 402 Payment Required, got ${unpaid.status}: ${await unpaid.text()}`);
const required = http.getPaymentRequiredResponse((name) => unpaid.headers.get(name), await unpaid.json());
const [offer] = required.accepts;
console.log(`402: ${Number(offer.amount) / 1e6} USDC (${offer.amount} atomic units) on ${offer.network}, paid to ${offer.payTo}`);

const payload = await http.createPaymentPayload(required);
const paid = await fetch(url, { headers: http.encodePaymentSignatureHeader(payload) });
const body = await paid.json();
if (!paid.ok) throw new Error(`payment refused (${paid.status}): ${JSON.stringify(body.error ?? body)}`);
const settlement = http.getPaymentSettleResponse((name) => paid.headers.get(name));
console.log(`${paid.status}: ${JSON.stringify(body)}`);
console.log(`settled: ${JSON.stringify(settlement)}`);
