import * as v from "valibot";
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from "@valibot/to-json-schema";
import { methodsOf, type AuthKind, type Route } from "./route";
import { named, namedSchemas } from "./schema-registry";
import { API_VERSION } from "./version";
import { STUDIO_COOKIE } from "./studio-session";

/** What every error body carries besides `detail` (core/errors.ts ErrorEnvelope). */
const ErrorEnvelope = {
  code: v.pipe(v.string(), v.description("Stable machine-readable error code (validation_failed for a 422).")),
  request_id: v.pipe(
    v.nullable(v.string()),
    v.description(
      "The request's id (Cloudflare's Ray ID where there is one), also in the X-Request-Id header and the service's log line: quote it to support.",
    ),
  ),
  docs: v.pipe(v.string(), v.description("The page that says what the code means and what to do: {WEB_URL}/errors#{code}.")),
};

const ErrorBody = named(
  "ErrorBody",
  v.object({
    detail: v.pipe(v.string(), v.description("What went wrong, for a human.")),
    ...ErrorEnvelope,
  }),
);

const ValidationErrorBody = named(
  "HTTPValidationError",
  v.object({
    detail: v.array(
      v.object({
        loc: v.pipe(v.array(v.union([v.string(), v.number()])), v.description('Where: ["query", "limit"], ["body", "email"], ...')),
        msg: v.string(),
        type: v.string(),
      }),
    ),
    ...ErrorEnvelope,
  }),
);

const SECURITY: Record<AuthKind, Record<string, string[]>[] | undefined> = {
  none: undefined,
  api_key: [{ ApiKeyQuery: [] }, { ServiceKey: [] }, { LegacyKey: [] }, { PublisherKey: [] }],
  admin: [{ AdminToken: [] }],
  api_key_or_admin: [{ ApiKeyQuery: [] }, { ServiceKey: [] }, { LegacyKey: [] }, { PublisherKey: [] }, { AdminToken: [] }],
  listener_token: undefined,
  webhook_signature: [{ WebhookSignature: [] }],
  feed_token: undefined,
  // The agent operations document their OAuth and x402 terms themselves (workers/agents/rest.ts toolResponses).
  bearer: undefined,
  agent: undefined,
  // Web pages are not in the document (Route.openapi).
  session: undefined,
  browser: undefined,
  studio: undefined,
  api_key_or_member: [{ ApiKeyQuery: [] }, { ServiceKey: [] }, { LegacyKey: [] }, { PublisherKey: [] }, { AdminToken: [] }, { StudioSession: [] }],
};

/** The 401 each credential kind answers (path tokens answer 404 instead: docs/api-conventions.md "Credentials"). */
const UNAUTHORIZED: Record<AuthKind, string | undefined> = {
  none: undefined,
  api_key: "Missing or wrong API key",
  admin: "Missing or wrong admin token",
  api_key_or_admin: "Missing or wrong API key or admin token",
  listener_token: undefined,
  feed_token: undefined,
  webhook_signature: "Missing, malformed, wrong or stale signature",
  bearer: undefined,
  agent: undefined,
  session: undefined,
  browser: undefined,
  studio: undefined,
  api_key_or_member: "Missing or wrong API key or admin token, and no studio session",
};

/** Where agents get OAuth 2.1 tokens (workers/agents/oauth): absolute, since WEB_URL may differ from BASE_URL. */
export interface OAuthDoc {
  authorizationUrl: string;
  tokenUrl: string;
  scopes: Record<string, string>;
}

const API_KEY_SCHEMES = {
  ApiKeyQuery: { type: "apiKey", in: "query", name: "api_key", description: "The service API key (SERVICE_API_KEY)." },
  ServiceKey: { type: "apiKey", in: "header", name: "x-service-key", description: "The service API key (SERVICE_API_KEY)." },
  LegacyKey: { type: "apiKey", in: "header", name: "x-legacy-key", description: "The service API key, legacy header." },
  PublisherKey: {
    type: "http",
    scheme: "bearer",
    description:
      "A publisher API key (npk_..., POST /v1/admin/publishers/{publisher}/keys): acts on that publisher's articles only. SERVICE_API_KEY is accepted as a Bearer token too.",
  },
  AdminToken: {
    type: "apiKey",
    in: "header",
    name: "x-service-email-token",
    description: "The admin token (ADMIN_TOKEN, from login or an admin magic link) or the legacy intake token.",
  },
  StudioSession: {
    type: "apiKey",
    in: "cookie",
    name: STUDIO_COOKIE,
    description: "A member's session of the publishers' studio ({WEB_URL}/studio/sign-in), on the web's origin.",
  },
  WebhookSignature: {
    type: "apiKey",
    in: "header",
    name: "x-legacy-signature",
    description:
      't=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>, the secret being PUBLISH_WEBHOOK_SECRET or the publisher\'s own; 300 s tolerance.',
  },
};

const WRAPPERS = new Set(["optional", "nullish", "exact_optional"]);

function conversion(): ConversionConfig {
  return {
    target: "draft-2020-12",
    typeMode: "input",
    errorMode: "ignore",
    definitions: namedSchemas(),
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  };
}

/** A schema as JSON Schema; a named schema becomes a reference to its component. */
function jsonSchema(schema: v.GenericSchema): JsonSchema {
  const name = Object.entries(namedSchemas()).find(([, s]) => s === schema)?.[0];
  if (name) return { $ref: `#/components/schemas/${name}` };
  // toJsonSchema appends every definition it was given as $defs; they are components.schemas here,
  // so keeping them would copy all of them into each parameter and body (2.7 MB for 57 paths).
  const { $schema: _, $defs: __, ...rest } = toJsonSchema(schema, conversion()) as JsonSchema & { $schema?: string };
  return rest;
}

type Entries = Record<string, v.GenericSchema & { type: string }>;

function parameters(where: "path" | "query" | "header", schema: v.GenericSchema | undefined) {
  const entries = (schema as unknown as { entries?: Entries } | undefined)?.entries ?? {};
  return Object.entries(entries).map(([name, field]) => {
    const { description, ...rest } = jsonSchema(field) as JsonSchema & { description?: string };
    return {
      name,
      in: where,
      required: where === "path" || !WRAPPERS.has(field.type),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: jsonSchema(ErrorBody) } },
});

/**
 * The answers many operations share: a validation error, a rate limit and each credential's 401.
 * Written once in components.responses and referred to from every operation, as with schemas; copied
 * into each, they were a third of the document.
 */
function sharedResponses() {
  const unauthorized = Object.entries(UNAUTHORIZED).flatMap(([auth, description]) =>
    description ? [[unauthorizedName(auth), errorResponse(description)]] : [],
  );
  return {
    ValidationError: { description: "Validation error", content: { "application/json": { schema: jsonSchema(ValidationErrorBody) } } },
    RateLimited: { ...errorResponse("Per-IP rate limit exceeded"), headers: { "Retry-After": { schema: { type: "integer" } } } },
    ...Object.fromEntries(unauthorized),
  };
}

const unauthorizedName = (auth: string) => `Unauthorized_${auth}`;
const sharedResponse = (name: string) => ({ $ref: `#/components/responses/${name}` });

function responses(r: Route) {
  const out: Record<string, unknown> = {};
  for (const [status, doc] of Object.entries(r.responses)) {
    const content = doc.schema
      ? { "application/json": { schema: jsonSchema(doc.schema) } }
      : doc.contentType
        ? { [doc.contentType]: { schema: { type: "string", format: "binary" } } }
        : undefined;
    const headers = doc.headers
      ? Object.fromEntries(Object.entries(doc.headers).map(([h, d]) => [h, { description: d, schema: { type: "string" } }]))
      : undefined;
    out[status] = { description: doc.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) };
  }
  if (r.params || r.query || r.body || r.headers) out["422"] ??= sharedResponse("ValidationError");
  if (UNAUTHORIZED[r.auth]) out["401"] ??= sharedResponse(unauthorizedName(r.auth));
  if (r.rateLimit || r.path.startsWith("/v1/admin/")) out["429"] ??= sharedResponse("RateLimited");
  return out;
}

/** The request bodies a route takes as they are, beside JSON (Route.rawBodies). */
function rawContent(r: Route): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r.rawBodies ?? {}).map(([type, raw]) => [type, { schema: { type: "string", description: raw.description } }]));
}

/** The OpenAPI 3.1 document of `routes`, generated from their schemas. */
export function openApiDocument(routes: readonly Route[], serverUrl: string, oauth: OAuthDoc) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.openapi === false) continue;
    const path = r.path.replace(/:(\w+)/g, "{$1}");
    for (const method of methodsOf(r)) {
      paths[path] ??= {};
      paths[path][method.toLowerCase()] = {
        tags: [r.tag],
        summary: r.summary,
        ...(r.description ? { description: r.description } : {}),
        operationId: r.operationId ?? `${method.toLowerCase()}_${path.replace(/[^a-zA-Z0-9]+/g, "_").replace(/^_|_$/g, "")}`,
        parameters: [...parameters("path", r.params), ...parameters("query", r.query), ...parameters("header", r.headers)],
        ...(r.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(r.body) }, ...rawContent(r) } } } : {}),
        ...(SECURITY[r.auth] ? { security: SECURITY[r.auth] } : {}),
        responses: responses(r),
      };
    }
  }
  const { definitions: _, ...defsConfig } = conversion();
  const components = toJsonSchemaDefs(namedSchemas(), { ...defsConfig, definitions: undefined } as never);
  return {
    openapi: "3.1.0",
    info: {
      title: "Audio Article Narration Service",
      version: API_VERSION,
      description:
        "Reads articles aloud, keeps a searchable archive, and publishes public and private podcast feeds. " +
        "Errors carry {detail, code}; validation failures (422) carry {detail: [{loc, msg, type}]}.",
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: components,
      responses: sharedResponses(),
      securitySchemes: {
        ...API_KEY_SCHEMES,
        OAuth2: {
          type: "oauth2",
          description: "OAuth 2.1 authorization code with PKCE (S256), for agents acting for a listener.",
          flows: { authorizationCode: { ...oauth, refreshUrl: oauth.tokenUrl } },
        },
      },
    },
  };
}
