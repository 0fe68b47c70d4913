import { toStandardJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";

/**
 * The JSON Schema of a tool's schemas, as the MCP SDK lists them: the Standard JSON Schema of
 * the valibot schema (draft 2020-12) with `type: "object"` first, as the SDK writes a tool's
 * inputSchema. The manifests use these same functions, so their `parameters` equal the MCP inputSchema.
 */

const TARGET = "draft-2020-12";

const standard = new WeakMap<v.GenericSchema, ReturnType<typeof toStandardJsonSchema>>();

/** The Standard Schema (validation plus JSON Schema) that the MCP SDK takes for `schema`. */
export function standardSchema<S extends v.GenericSchema>(schema: S) {
  let hit = standard.get(schema);
  if (!hit) {
    hit = toStandardJsonSchema(schema);
    standard.set(schema, hit);
  }
  return hit as ReturnType<typeof toStandardJsonSchema<S>>;
}

/** A tool's arguments as JSON Schema: the MCP inputSchema and the manifests' `parameters`. */
export function inputJsonSchema(schema: v.GenericSchema): Record<string, unknown> {
  return { type: "object", ...standardSchema(schema)["~standard"].jsonSchema.input({ target: TARGET }) };
}

/** A tool's result as JSON Schema: the MCP outputSchema. */
export function outputJsonSchema(schema: v.GenericSchema): Record<string, unknown> {
  return standardSchema(schema)["~standard"].jsonSchema.output({ target: TARGET });
}
