import { toStandardJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";

/**
 * The JSON Schema of a tool's schemas, as the MCP SDK lists them: the Standard JSON Schema of
 * the valibot schema (draft 2020-12) with `type: "object"` first, as the SDK writes a tool's
 * inputSchema. The manifests use these same functions, so their `parameters` equal the MCP inputSchema.
 */

const TARGET = "draft-2020-12";

type Standard = ReturnType<typeof toStandardJsonSchema>;
type Convert = Standard["~standard"]["jsonSchema"]["input"];

/**
 * `convert` run once per target. The SDK converts a tool's schemas to JSON Schema whenever a tool
 * is registered, and the stateless handler registers every tool on a new McpServer per request;
 * the schemas never change, so neither does the answer (shared: callers must not modify it).
 */
function once(convert: Convert): Convert {
  const done = new Map<string, Record<string, unknown>>();
  return (options) => {
    if (options.libraryOptions) return convert(options);
    let hit = done.get(options.target);
    if (!hit) {
      hit = convert(options);
      done.set(options.target, hit);
    }
    return hit;
  };
}

const standard = new WeakMap<v.GenericSchema, Standard>();

/** The Standard Schema (validation plus JSON Schema) that the MCP SDK takes for `schema`. */
export function standardSchema<S extends v.GenericSchema>(schema: S) {
  let hit = standard.get(schema);
  if (!hit) {
    const made = toStandardJsonSchema(schema)["~standard"];
    hit = { "~standard": { ...made, jsonSchema: { input: once(made.jsonSchema.input), output: once(made.jsonSchema.output) } } };
    standard.set(schema, hit);
  }
  return hit as ReturnType<typeof toStandardJsonSchema<S>>;
}

/** A tool's arguments as JSON Schema: the MCP inputSchema and the manifests' `parameters`. */
export function inputJsonSchema(schema: v.GenericSchema): Record<string, unknown> {
  return { type: "object", ...standardSchema(schema)["~standard"].jsonSchema.input({ target: TARGET }) };
}
