// The overhead of paying for a call: get_audio_url over REST with an x402 payment (verify, the work,
// settle, the ledger's record and three legs, against the local facilitator) beside the same answer
// free (GET /v1/articles/{slug}/audio, the audio URL of the same article without any payment). A
// throwaway viem account signs every payment before the clock starts, as
// scripts/x402-wallet-agent.mjs does; each payment is single use, so each call carries its own.
import { x402Client } from "@x402/core/client";
import { x402HTTPClient } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { fetchOk, percentile } from "./http.mjs";
import { publish, untilDone } from "./rendering.bench.mjs";

const CALLS = 60;

async function serial(requests) {
  const latencies = [];
  for (const request of requests) {
    const t0 = performance.now();
    const res = await request();
    const body = await res.text();
    if (!res.ok) throw new Error(`paid-call bench: ${res.status} ${body.slice(0, 200)}`);
    latencies.push(performance.now() - t0);
  }
  return latencies;
}

export async function run({ base, vars }) {
  const { slug, job_id } = await publish(base, vars, {
    title: `Paid call ${Date.now()}`,
    publisher: "Bench Post",
    vertical: "news",
    body_text: "A short article, narrated once, whose audio URL agents pay for.",
  });
  await untilDone(base, vars, job_id);

  const free = `${base}/v1/articles/${slug}/audio`;
  const paid = `${base}/v1/agent/articles/${slug}/audio`;
  await fetchOk(free);
  const account = privateKeyToAccount(generatePrivateKey());
  const http = new x402HTTPClient(new x402Client().register("eip155:*", new ExactEvmScheme(account)));
  const unpaid = await fetch(paid);
  if (unpaid.status !== 402) throw new Error(`expected 402 from ${paid}, got ${unpaid.status}`);
  const required = http.getPaymentRequiredResponse((name) => unpaid.headers.get(name), await unpaid.json());
  const signatures = [];
  for (let i = 0; i < CALLS; i++) signatures.push(http.encodePaymentSignatureHeader(await http.createPaymentPayload(required)));

  // Interleaved, one call at a time, so both meet the same background load.
  const freeLatencies = [];
  const paidLatencies = [];
  for (let i = 0; i < CALLS; i++) {
    freeLatencies.push(...(await serial([() => fetch(free)])));
    paidLatencies.push(...(await serial([() => fetch(paid, { headers: signatures[i] })])));
  }
  const bench = `get_audio_url, cached audio: paid over REST with x402 (local facilitator) vs the same answer free, ${CALLS} calls each`;
  const [f50, p50, f95, p95] = [percentile(freeLatencies, 50), percentile(paidLatencies, 50), percentile(freeLatencies, 95), percentile(paidLatencies, 95)];
  return [
    { benchmark: bench, metric: "free p50 / p95", value: `${f50.toFixed(1)} / ${f95.toFixed(1)}`, unit: "ms" },
    { benchmark: bench, metric: "paid p50 / p95", value: `${p50.toFixed(1)} / ${p95.toFixed(1)}`, unit: "ms" },
    { benchmark: bench, metric: "overhead of payment (p50)", value: (p50 - f50).toFixed(1), unit: `ms (${(p50 / f50).toFixed(2)}x free)` },
  ];
}
