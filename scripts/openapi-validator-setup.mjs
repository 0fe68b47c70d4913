// vitest globalSetup: a loopback HTTP service through which tests running in workerd check the
// OpenAPI document with @seriousme/openapi-schema-validator (the OpenAPI Initiative's JSON Schemas,
// run by Ajv, which needs code generation that workerd refuses). Tests POST the document to the
// URL provided as "openApiValidatorUrl" and get back { valid, version, errors }.
import { createServer } from "node:http";
import { Validator } from "@seriousme/openapi-schema-validator";

export default async function setup({ provide }) {
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    try {
      const validator = new Validator();
      const { valid, errors } = await validator.validate(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ valid, version: validator.version, errors: errors ?? [] }));
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  provide("openApiValidatorUrl", `http://127.0.0.1:${server.address().port}/validate`);
  return () => new Promise((resolve) => server.close(resolve));
}
