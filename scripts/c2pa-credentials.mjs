// Prints a C2PA signing credential as the render Worker reads it (docs/narration.md "Marked as synthetic", C2PA):
// C2PA_SIGNING_KEY, the PKCS#8 EC P-256 key, and C2PA_CERTIFICATE_CHAIN, the signing certificate and
// the CA certificate that issued it, each DER in base64, comma-separated. C2PA rejects self-signed
// signing certificates, so a throwaway CA issues one: digitalSignature, emailProtection, not a CA.
// Uses the openssl command. `node scripts/c2pa-credentials.mjs "Your organisation"` for one of your
// own (then use a certificate from a CA on the C2PA trust list for audio others must trust); the
// development pair in .dev.vars.example was made with it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const organisation = process.argv[2] ?? "Narration (development)";
const days = process.argv[3] ?? "7300";
const dir = mkdtempSync(path.join(tmpdir(), "c2pa-credentials-"));
const at = (f) => path.join(dir, f);
const openssl = (...args) => execFileSync("openssl", args, { stdio: ["ignore", "pipe", "pipe"] });
try {
  writeFileSync(
    at("x509.cnf"),
    [
      "[req]",
      "distinguished_name = dn",
      "[dn]",
      "[ca]",
      "basicConstraints = critical, CA:TRUE",
      "keyUsage = critical, keyCertSign, cRLSign",
      "subjectKeyIdentifier = hash",
      "[signer]",
      "basicConstraints = critical, CA:FALSE",
      "keyUsage = critical, digitalSignature",
      "extendedKeyUsage = emailProtection",
      "subjectKeyIdentifier = hash",
      "authorityKeyIdentifier = keyid",
    ].join("\n"),
  );
  const subject = (cn) => `/CN=${cn}/O=${organisation.replace(/[/=]/g, " ")}`;
  openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", at("ca.key"));
  openssl(
    "req",
    "-x509",
    "-new",
    "-key",
    at("ca.key"),
    "-subj",
    subject("Narration signing CA"),
    "-days",
    days,
    "-config",
    at("x509.cnf"),
    "-extensions",
    "ca",
    "-out",
    at("ca.pem"),
  );
  openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", at("signer.key"));
  openssl("req", "-new", "-key", at("signer.key"), "-subj", subject("Narration render"), "-config", at("x509.cnf"), "-out", at("signer.csr"));
  openssl(
    "x509",
    "-req",
    "-in",
    at("signer.csr"),
    "-CA",
    at("ca.pem"),
    "-CAkey",
    at("ca.key"),
    "-set_serial",
    "1",
    "-days",
    days,
    "-extfile",
    at("x509.cnf"),
    "-extensions",
    "signer",
    "-out",
    at("signer.pem"),
  );
  const der = (pem) => openssl("x509", "-in", pem, "-outform", "DER").toString("base64");
  const key = openssl("pkcs8", "-topk8", "-nocrypt", "-in", at("signer.key"), "-outform", "DER").toString("base64");
  console.log(`C2PA_SIGNING_KEY=${key}`);
  console.log(`C2PA_CERTIFICATE_CHAIN=${der(at("signer.pem"))},${der(at("ca.pem"))}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
