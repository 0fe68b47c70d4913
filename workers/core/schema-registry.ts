import type * as v from "valibot";

/**
 * Named schemas (RenderRequest, JobView, ...): the OpenAPI document lists them under
 * components.schemas and refers to them by name wherever a route uses them.
 */
const registry = new Map<string, v.GenericSchema>();

/** Registers `schema` under `name` and returns it unchanged. */
export function named<S extends v.GenericSchema>(name: string, schema: S): S {
  const existing = registry.get(name);
  if (existing && existing !== schema) throw new Error(`schema name ${name} is used twice`);
  registry.set(name, schema);
  return schema;
}

/** Every named schema, for the OpenAPI generator. */
export function namedSchemas(): Record<string, v.GenericSchema> {
  return Object.fromEntries(registry);
}
