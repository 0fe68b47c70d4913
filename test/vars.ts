/**
 * Configuration the tests run with. CI has no .dev.vars, so every secret a test relies on is
 * set here explicitly, and tests read the values from this module rather than repeating them.
 */
export const testVars = {
  BASE_URL: "https://api.test",
  WEB_URL: "https://web.test",
  FEED_OWNER_EMAIL: "podcasts@example.test",
  SERVICE_API_KEY: "test-service-key",
  PUBLISH_WEBHOOK_SECRET: "test-webhook-secret",
  ADMIN_EMAIL: "admin@example.test",
  ADMIN_PASSWORD: "test-admin-password",
  ADMIN_TOKEN: "test-admin-token",
  ADMIN_ALLOWLIST: "admin@example.test,ops@example.test",
  LEGACY_INTAKE_TOKEN: "test-legacy-intake-token",
  // Mail lands in the D1 outbox (GET /v1/dev/outbox); no test sends real mail.
  MAIL_OUTBOX: "true",
  MAIL_FROM: "Narration <no-reply@narration.test>",
  TOKEN_ENCRYPTION_KEY: "dGVzdC10b2tlbi1lbmNyeXB0aW9uLWtleS0zMmJ5dGU=",
  MAX_IN_FLIGHT_RENDERS_PER_LISTENER: "3",
  SUBSCRIBE_IDEMPOTENCY_SECONDS: "600",
  RATE_LIMIT_READ_PER_MINUTE: "60",
  RATE_LIMIT_ADMIN_PER_MINUTE: "30",
  RATE_LIMIT_FEEDS_PER_MINUTE: "600",
  RATE_LIMIT_PAGES_PER_MINUTE: "300",
  // Search suggestions from GDELT, faked at fetch: tests never depend on a developer's .dev.vars.
  NEWS_PROVIDER: "gdelt",
  // A C2PA signing key and chain for tests only (scripts/c2pa-credentials.mjs "Narration (tests)"), which the rendering tests sign with.
  C2PA_SIGNING_KEY:
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgZVvt7eT+QL3jwa6yYHsb6IbEtEAPaIAnUIyVSolRVmWhRANCAATwSPQeNqRbg/8IEBzOVQbb/B81wVIpCDtmrhm3fvmj2SSsCYveuuhQ7I7dQHJXLHIL+J85wZjVNmLGY1Iyji0y",
  C2PA_CERTIFICATE_CHAIN:
    "MIIB1jCCAXygAwIBAgIBATAKBggqhkjOPQQDAjA7MR0wGwYDVQQDDBROYXJyYXRpb24gc2lnbmluZyBDQTEaMBgGA1UECgwRTmFycmF0aW9uICh0ZXN0cykwHhcNMjYxMTI1MTQ1MzMxWhcNNDYxMTIwMTQ1MzMxWjA3MRkwFwYDVQQDDBBOYXJyYXRpb24gcmVuZGVyMRowGAYDVQQKDBFOYXJyYXRpb24gKHRlc3RzKTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABPBI9B42pFuD/wgQHM5VBtv8HzXBUikIO2auGbd++aPZJKwJi9666FDsjt1Aclcscgv4nznBmNU2YsZjUjKOLTKjdTBzMAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMEMB0GA1UdDgQWBBR7GloAqE17NS4TP7eSCX1zF0AQNzAfBgNVHSMEGDAWgBS6uNkBtOSI0l7BS/J4RwiPzvQ2AzAKBggqhkjOPQQDAgNIADBFAiEAjqFC/DymoFe9odlBuVzQJK2FRB+ipEdcZeyYHaEzedgCICUH0Lt/G/hsB9bPkCviy7Egp7MvACSPiIJfz+DIxQFu,MIIBuTCCAWCgAwIBAgIUD+lznIH3wvjbyOhoUee0IOHitegwCgYIKoZIzj0EAwIwOzEdMBsGA1UEAwwUTmFycmF0aW9uIHNpZ25pbmcgQ0ExGjAYBgNVBAoMEU5hcnJhdGlvbiAodGVzdHMpMB4XDTI2MTEyNTE0NTMzMVoXDTQ2MTEyMDE0NTMzMVowOzEdMBsGA1UEAwwUTmFycmF0aW9uIHNpZ25pbmcgQ0ExGjAYBgNVBAoMEU5hcnJhdGlvbiAodGVzdHMpMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEUk+i0x9dvq8zIwXL+2WjXJHK9nisZCOLSe/SV455vv+VTDFw9rPGO9/CyYznA9pzgI5+pkH8GZUOGeW7Z28ZBKNCMEAwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0OBBYEFLq42QG05IjSXsFL8nhHCI/O9DYDMAoGCCqGSM49BAMCA0cAMEQCIDDbTJzSOjJJPq+ZLv81FzSqmoyjpgf39WRckQl/bnIgAiAWWCOIPbyaH6I1C+nvOsrFzp348p0mbTaSPKT2AH2tMw==",
  // The audio watermark's key for tests only; the render Worker of the tests gets it too (vitest.config.ts).
  WATERMARK_KEY: "test-watermark-key-0001",
  BUILD_COMMIT: "test-commit",
  BUILD_TIME: "2026-11-21T00:00:00.000Z",
} as const;
