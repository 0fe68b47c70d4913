import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { inputJsonSchema, standardSchema } from "./json-schema";

const Args = v.object({ query: v.pipe(v.string(), v.minLength(1)), limit: v.optional(v.number(), 20) });

describe("tool schemas as the MCP SDK takes them", () => {
  it("convert to JSON Schema once per target, however many servers register them", () => {
    const { jsonSchema } = standardSchema(Args)["~standard"];
    const first = jsonSchema.input({ target: "draft-2020-12" });
    expect(jsonSchema.input({ target: "draft-2020-12" })).toBe(first);
    expect(standardSchema(Args)["~standard"].jsonSchema.input({ target: "draft-2020-12" })).toBe(first);
    expect(jsonSchema.input({ target: "draft-07" })).not.toBe(first);
    expect(first).toMatchObject({ properties: { query: { type: "string", minLength: 1 } }, required: ["query"] });
  });

  it("keep validating with the valibot schema", async () => {
    const std = standardSchema(Args)["~standard"];
    expect(await std.validate({ query: "tides" })).toMatchObject({ value: { query: "tides", limit: 20 } });
    expect((await std.validate({ query: "" })).issues).toHaveLength(1);
  });

  it("give the manifests their input JSON Schema", () => {
    expect(inputJsonSchema(Args)).toMatchObject({ type: "object", required: ["query"] });
  });
});
