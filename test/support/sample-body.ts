/**
 * A plausible body for a route, built from its valibot schema, for the generated validation suites:
 * hostile variants of a body that passes validation reach the handler, where the 500s were. Required
 * fields only, plus those `hints` name (a hint is used as the field's value wherever that name occurs).
 * Text satisfies the schema's email, URL, timestamp and pattern checks where it can; a custom check
 * may still refuse the sample, which the suite counts.
 */

export type SchemaNode = {
  type: string;
  wrapped?: SchemaNode;
  entries?: Record<string, SchemaNode>;
  item?: SchemaNode;
  options?: (SchemaNode | string)[];
  pipe?: { type: string; requirement?: unknown }[];
};

/** Values some fields need to get past validation into the handler. */
export const SAMPLE_HINTS: Record<string, unknown> = {
  text: "Hi.",
  voice: "en-US-female",
  article_slug: "x",
  url: "https://example.test/sample",
};

const OPTIONAL = new Set(["optional", "exact_optional", "nullish"]);
const WRAPPERS = new Set([...OPTIONAL, "nullable", "non_optional", "non_nullable"]);
/** Texts tried, in order, against a field's patterns (a vertical, a voice, a slug, a wallet address). */
const PATTERN_CANDIDATES = ["tech", "en-US-female", "sample-1", `0x${"1".repeat(40)}`];

function unwrap(schema: SchemaNode): SchemaNode {
  let s = schema;
  while (WRAPPERS.has(s.type) && s.wrapped) s = s.wrapped;
  return s;
}

function actions(schema: SchemaNode, type: string) {
  return (schema.pipe ?? []).filter((a) => a.type === type);
}

function sampleText(schema: SchemaNode): string {
  if (actions(schema, "email").length) return "sample@example.test";
  if (actions(schema, "url").length) return "https://example.test/sample";
  if (actions(schema, "iso_timestamp").length) return "2026-01-01T00:00:00.000Z";
  const patterns = actions(schema, "regex").map((a) => a.requirement as RegExp);
  if (patterns.length) return PATTERN_CANDIDATES.find((c) => patterns.every((p) => p.test(c))) ?? "sample";
  return "sample";
}

/** A value for `schema`; `key` is the field's name, looked up in `hints`. */
export function sampleOf(schema: SchemaNode, hints: Record<string, unknown>, key?: string): unknown {
  if (key !== undefined && key in hints) return hints[key];
  const s = unwrap(schema);
  switch (s.type) {
    case "object":
    case "strict_object":
    case "loose_object": {
      const out: Record<string, unknown> = {};
      for (const [name, field] of Object.entries(s.entries ?? {})) {
        if (!OPTIONAL.has(field.type) || name in hints) out[name] = sampleOf(field, hints, name);
      }
      return out;
    }
    case "array":
      return s.item ? [sampleOf(s.item, hints)] : [];
    case "string":
      return sampleText(s);
    case "number": {
      const min = actions(s, "min_value")[0]?.requirement;
      return typeof min === "number" ? min : 1;
    }
    case "boolean":
      return false;
    case "picklist":
      return s.options?.[0];
    case "union":
      return s.options?.length ? sampleOf(s.options[0] as SchemaNode, hints) : null;
    default:
      return null;
  }
}

/** The path of every text field of `schema`, optional ones included (array items as index 0). */
export function stringLeaves(schema: SchemaNode, path: (string | number)[] = []): (string | number)[][] {
  const s = unwrap(schema);
  if (s.type === "string") return [path];
  if (s.type === "array" && s.item) return stringLeaves(s.item, [...path, 0]);
  return Object.entries(s.entries ?? {}).flatMap(([name, field]) => stringLeaves(field, [...path, name]));
}

/** A copy of `base` with `value` at `path`, creating the objects and arrays on the way. */
export function withLeaf(base: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    const list = Array.isArray(base) ? [...base] : [];
    list[head] = withLeaf(list[head], rest, value);
    return list;
  }
  const object = base && typeof base === "object" && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  object[head] = withLeaf(object[head], rest, value);
  return object;
}
