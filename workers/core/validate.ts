import * as v from "valibot";
import { ApiError, ValidationError, type ValidationIssue } from "./errors";
import { redactCredentials } from "./redact";
import { textProblem } from "./text";

/** Largest JSON body any route takes; article text is the biggest legitimate payload. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Largest web form or OAuth request (RFC 6749 token, RFC 7591 registration): a few short fields. */
export const MAX_FORM_BYTES = 64 * 1024;

type Location = "path" | "query" | "header" | "body";
type Schemaish = v.GenericSchema & { type: string; wrapped?: Schemaish; entries?: Record<string, Schemaish>; item?: Schemaish };

const WRAPPERS = new Set(["optional", "nullable", "nullish", "exact_optional", "non_optional", "non_nullable"]);

/** The base type of a field schema, under optional/nullable wrappers (a piped schema keeps its root's type). */
function baseType(schema: Schemaish): string {
  let s = schema;
  while (WRAPPERS.has(s.type) && s.wrapped) s = s.wrapped;
  return s.type;
}

/**
 * Query strings, path segments and headers are text. Coerce each field to the type its schema
 * declares before validating, so schemas stay plain (v.number, v.boolean) and convert cleanly to
 * OpenAPI; text that does not look like the type is left as is and fails validation clearly.
 */
function coerce(where: Location, schema: Schemaish, raw: Record<string, string | string[] | undefined>): Record<string, unknown> {
  // Keys are the client's (a query may name __proto__ or constructor): a null-prototype object
  // holds them as plain keys, and only the schema's own entries describe a field.
  const out: Record<string, unknown> = Object.create(null);
  const repeated: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const field = schema.entries && Object.hasOwn(schema.entries, key) ? schema.entries[key] : undefined;
    if (!field || value === undefined) {
      out[key] = value;
      continue;
    }
    const type = baseType(field);
    if (type === "array") {
      out[key] = (Array.isArray(value) ? value : [value]).flatMap((x) => x.split(",")).filter((x) => x !== "");
      continue;
    }
    // One value, given twice, is ambiguous (which one a proxy or a cache read is anyone's guess).
    if (Array.isArray(value)) {
      repeated.push({ loc: [where, key], msg: "given more than once", type: "duplicate" });
      continue;
    }
    const text = value;
    if (type === "number" && /^-?\d+(\.\d+)?$/.test(text)) out[key] = Number(text);
    else if (type === "boolean" && /^(true|false|1|0)$/i.test(text)) out[key] = /^(true|1)$/i.test(text);
    else if (type === "null" || (type !== "string" && text === "null")) out[key] = null;
    else out[key] = text;
  }
  if (repeated.length > 0) throw new ValidationError(repeated);
  return out;
}

function toIssues(where: Location, issues: readonly v.BaseIssue<unknown>[]): ValidationIssue[] {
  return issues.map((issue) => {
    const path = issue.path?.map((p) => p.key as string | number) ?? [];
    return { loc: [where, ...path], msg: issue.message, type: issue.type };
  });
}

/**
 * Every string in the input, at any depth, checked as text (workers/core/text.ts) before the schema
 * sees it, so no field of any route can carry a control character to SQL, XML or a header. Only
 * JSON bodies hold prose with line breaks. Iterative: a body may nest deeper than the call stack.
 */
function textIssues(where: Location, input: unknown): ValidationIssue[] {
  type Step = { value: unknown; key?: string | number; parent?: Step };
  const pathOf = (step: Step) => {
    const path: (string | number)[] = [];
    for (let s: Step | undefined = step; s?.parent; s = s.parent) path.unshift(s.key!);
    return path;
  };
  const issues: ValidationIssue[] = [];
  const stack: Step[] = [{ value: input }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === "string") {
      const msg = textProblem(value, where === "body");
      if (msg) issues.push({ loc: [where, ...pathOf(step)], msg, type: "text" });
    } else if (value && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        stack.push({ value: item, key: Array.isArray(value) ? Number(key) : key, parent: step });
      }
    }
  }
  return issues.reverse();
}

function check<S extends v.GenericSchema>(where: Location, schema: S, input: unknown): v.InferOutput<S> {
  const refused = textIssues(where, input);
  if (refused.length > 0) throw new ValidationError(refused);
  const result = v.safeParse(schema, input);
  if (!result.success) throw new ValidationError(toIssues(where, result.issues));
  return result.output;
}

/**
 * Valid paths and queries already checked, by schema and input. The hot paths are repeats of a few
 * URLs (an episode's audio, feed polls, cached searches), and checking them (text, coercion, the
 * schema) was the largest share of ours left on a search cache hit (bench/README.md, "Where the
 * time went"). Bounded per schema, first in first out. Entries are frozen: every request that
 * repeats the input shares one. Refused inputs, long ones and those that may carry a credential are
 * checked every time, so no credential is kept (workers/core/redact.ts says what looks like one).
 */
const checkedInputs = new WeakMap<v.GenericSchema, Map<string, unknown>>();
const CHECKED_PER_SCHEMA = 256;
const LONGEST_KEPT = 512;

function frozen<T>(output: T): T {
  if (output && typeof output === "object") {
    for (const value of Object.values(output)) if (Array.isArray(value)) Object.freeze(value);
    Object.freeze(output);
  }
  return output;
}

/** `checkNow()`, or its earlier output for the same `key`; a null key is never kept. */
function checkedOnce<S extends v.GenericSchema>(schema: S, key: string | null, checkNow: () => v.InferOutput<S>): v.InferOutput<S> {
  if (key === null || key.length > LONGEST_KEPT) return checkNow();
  let checked = checkedInputs.get(schema);
  if (!checked) checkedInputs.set(schema, (checked = new Map()));
  const known = checked.get(key);
  if (known !== undefined) return known as v.InferOutput<S>;
  const output = checkNow();
  if (redactCredentials(key) !== key) return output;
  if (checked.size >= CHECKED_PER_SCHEMA) checked.delete(checked.keys().next().value!);
  checked.set(key, frozen(output));
  return output;
}

/**
 * Validates path parameters (already URL-decoded by the caller). `remember`: the path carries no
 * credential, so a valid one may be kept for the next request that repeats it.
 */
export function parseParams<S extends v.GenericSchema>(schema: S, params: Record<string, string>, remember = false): v.InferOutput<S> {
  return checkedOnce(schema, remember ? JSON.stringify(params) : null, () => check("path", schema, coerce("path", schema as unknown as Schemaish, params)));
}

/** Validates the query string; `remember` as for parseParams. */
export function parseQuery<S extends v.GenericSchema>(schema: S, url: URL, remember = false): v.InferOutput<S> {
  return checkedOnce(schema, remember ? url.search : null, () => {
    const raw: Record<string, string | string[]> = Object.create(null);
    for (const [k, val] of url.searchParams) {
      const prev = raw[k];
      raw[k] = prev === undefined ? val : ([] as string[]).concat(prev, val);
    }
    return check("query", schema, coerce("query", schema as unknown as Schemaish, raw));
  });
}

/**
 * Validates the headers a schema names (lower-case keys). `remember` as for parseParams, and only
 * when the request sends none of them (most requests), so no header value is ever kept.
 */
export function parseHeaders<S extends v.GenericSchema>(schema: S, headers: Headers, remember = false): v.InferOutput<S> {
  const raw: Record<string, string> = {};
  let given = 0;
  for (const key of Object.keys((schema as unknown as Schemaish).entries ?? {})) {
    const val = headers.get(key);
    if (val !== null) {
      raw[key] = val;
      given++;
    }
  }
  return checkedOnce(schema, remember && given === 0 ? "" : null, () => check("header", schema, coerce("header", schema as unknown as Schemaish, raw)));
}

function refuseOversize(size: number, limit: number): void {
  if (size > limit) throw new ApiError("payload_too_large", `body exceeds ${limit} bytes`);
}

/**
 * The most of a body read (and dropped) past its limit before the answer: a body cancelled while the
 * client still sends it broke the local proxy's connection to the Worker, and the client saw a 500
 * for a chunked 30 MB sign-in form (issue 40 item 12, reproduced under `npm start`). Read to its end,
 * the client gets the 413; past this much, which no platform limit of Cloudflare's lets through
 * (100 MB at the least), the stream is cancelled.
 */
const DRAINED_AT_MOST = 100 * 1024 * 1024;

/** Reads what is left of a refused body, dropping it, up to DRAINED_AT_MOST in all; then cancels. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, read: number): Promise<void> {
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    read += next.value.byteLength;
    if (read > DRAINED_AT_MOST) return reader.cancel();
  }
}

/**
 * The body's exact bytes, counted as they stream in: past `limit` nothing more is kept, the rest is
 * read and dropped (drain) and the answer is 413, so no body is held whole before its size is known. Content-Length only allows an
 * early refusal; a chunked body (RFC 9112 §7.1) declares no length, and the count is what holds.
 * The one reader of request bodies: JSON (readBodyText), signed webhooks, web forms and OAuth requests;
 * and of the one response body read whole from elsewhere, a client metadata document (oauth/client-metadata.ts).
 */
export async function readBodyBytes(request: Pick<Request, "headers" | "body">, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  refuseOversize(Number(request.headers.get("content-length") ?? "0"), limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await drain(reader, size);
      refuseOversize(size, limit);
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * A body's bytes as text. JSON is UTF-8 (RFC 8259 §8.1): bytes that are not (Latin-1 text, a cut
 * multi-byte character) are a 422 on the body, never text with replacement characters stored as if
 * the client had sent them. A byte order mark is dropped, as Request.text() drops it.
 */
export function decodeBody(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ValidationError([{ loc: ["body"], msg: "body is not valid UTF-8", type: "utf8_invalid" }]);
  }
}

/** The body as UTF-8 text (decodeBody), read within `limit` by readBodyBytes. */
export async function readBodyText(request: Pick<Request, "headers" | "body">, limit = MAX_BODY_BYTES): Promise<string> {
  return decodeBody(await readBodyBytes(request, limit));
}

const OBJECTS = new Set(["object", "strict_object", "loose_object", "object_with_rest"]);

/**
 * Where `data` holds an array in place of an object its schema wants. valibot's object schemas
 * take any non-null `typeof "object"`, arrays included, so `[]` would pass as an object whose
 * optional fields are all absent. Walks the schema, so the depth is the schema's, never the data's.
 */
function arraysForObjects(schema: Schemaish, data: unknown, path: (string | number)[] = []): ValidationIssue[] {
  const s = WRAPPERS.has(schema.type) && schema.wrapped ? schema.wrapped : schema;
  if (s !== schema) return arraysForObjects(s, data, path);
  if (OBJECTS.has(s.type)) {
    if (Array.isArray(data)) return [{ loc: ["body", ...path], msg: "expected an object, not an array", type: "object" }];
    if (!data || typeof data !== "object") return [];
    return Object.entries(s.entries ?? {}).flatMap(([key, field]) => arraysForObjects(field, (data as Record<string, unknown>)[key], [...path, key]));
  }
  if (s.type === "array" && s.item && Array.isArray(data)) return data.flatMap((item, i) => arraysForObjects(s.item!, item, [...path, i]));
  return [];
}

/**
 * JSON objects as null-prototype objects. A body's keys are the client's: `__proto__`, `constructor`
 * or `toString` are then plain keys like any other unknown one, which the schemas ignore, and a
 * schema never finds Object.prototype's members where the client sent nothing.
 */
function plainObjects(_key: string, value: unknown): unknown {
  return value && typeof value === "object" && !Array.isArray(value) ? Object.assign(Object.create(null), value) : value;
}

/** Validates a body a route took as it is and turned into a value (core/route.ts Route.rawBodies). */
export function checkBody<S extends v.GenericSchema>(schema: S, data: unknown): v.InferOutput<S> {
  return check("body", schema, data);
}

/** Parses a JSON body; malformed JSON is a 422 like any other invalid body. */
export function parseJsonBody<S extends v.GenericSchema>(schema: S, text: string): v.InferOutput<S> {
  let data: unknown;
  try {
    data = text === "" ? undefined : JSON.parse(text, plainObjects);
  } catch {
    throw new ValidationError([{ loc: ["body"], msg: "body is not valid JSON", type: "json_invalid" }]);
  }
  const misshapen = arraysForObjects(schema as unknown as Schemaish, data);
  if (misshapen.length > 0) throw new ValidationError(misshapen);
  return check("body", schema, data);
}
