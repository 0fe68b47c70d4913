import { route } from "../../core/route";
import { didDocument } from "../x402/receipts";

/**
 * The platform's did:web DID document: the public key of the signed x402 offers and receipts (the
 * offer-receipt extension's JWS `kid` names a verification method here; docs/agents/payments.md "Receipts").
 */
export const getDidDocument = route({
  method: "GET",
  path: "/.well-known/did.json",
  tag: "discovery",
  summary: "The platform's DID document (did:web): the key that verifies its signed x402 offers and receipts",
  auth: "none",
  responses: {
    200: { description: "A DID document: one JsonWebKey2020 (Ed25519) key", contentType: "application/json" },
    503: { description: "No TOKEN_ENCRYPTION_KEY: the platform signs nothing" },
  },
  async handle({ env }) {
    return Response.json(await didDocument(env), { headers: { "Cache-Control": "public, max-age=300" } });
  },
});
