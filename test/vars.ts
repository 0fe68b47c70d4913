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
  // Search suggestions from GDELT, faked at fetch: tests never depend on a developer's .dev.vars.
  NEWS_PROVIDER: "gdelt",
  BUILD_COMMIT: "test-commit",
  BUILD_TIME: "2026-11-21T00:00:00.000Z",
} as const;
