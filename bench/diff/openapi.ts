import type { ContractDoc } from "../../contract-model/contract-doc.js";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A JSON Schema 2020-12 node rewritten in the OpenAPI 3.0 dialect openapi-diff reads: `const` →
 * one-value `enum`, `type` arrays with `null` → `nullable`, numeric `exclusiveMinimum/Maximum` →
 * boolean form.
 */
export function toOpenApi30(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApi30);
  if (!isObj(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "const") out.enum = [v];
    else if (k === "type" && v === "null") {
      out.nullable = true;
      out.enum = [null];
    } else if (k === "type" && Array.isArray(v)) {
      const rest = v.filter((t) => t !== "null");
      if (rest.length < v.length) out.nullable = true;
      if (rest.length === 1) out.type = rest[0];
      else out.anyOf = rest.map((t) => ({ type: t }));
    } else if ((k === "exclusiveMinimum" || k === "exclusiveMaximum") && typeof v === "number") {
      out[k === "exclusiveMinimum" ? "minimum" : "maximum"] = v;
      out[k] = true;
    } else if (
      k === "$schema" ||
      k === "$id" ||
      k === "$defs" ||
      k === "$comment" ||
      k === "examples"
    )
      continue;
    else out[k] = isObj(v) || Array.isArray(v) ? toOpenApi30(v) : v;
  }
  return out;
}

/**
 * The OpenAPI 3.0 document equivalent to a tools list: one POST operation per tool, request =
 * input, 200 = output.
 */
export function contractToOpenApi(doc: ContractDoc, version = "1.0.0"): Json {
  const scopes = new Set<string>();
  const paths: Json = {};
  for (const t of [...doc.tools.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const toolScopes = (t.securitySchemes ?? []).flatMap((s) => s.scopes);
    for (const s of toolScopes) scopes.add(s);
    paths[`/tools/${t.name}`] = {
      post: {
        operationId: t.name,
        ...(t.title ? { summary: t.title } : {}),
        ...(t.description ? { description: t.description } : {}),
        "x-mcp-annotations": t.annotations ?? {},
        ...(t.uiUri ? { "x-mcp-ui": t.uiUri } : {}),
        security: [{ oauth: toolScopes }],
        requestBody: {
          required: true,
          content: { "application/json": { schema: toOpenApi30(t.rawInput) } },
        },
        responses: {
          "200": {
            description: "result",
            content: {
              "application/json": { schema: toOpenApi30(t.hasOutputSchema ? t.rawOutput : {}) },
            },
          },
        },
      },
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: "tools", version },
    paths,
    components: {
      securitySchemes: {
        oauth: {
          type: "oauth2",
          flows: {
            clientCredentials: {
              tokenUrl: "https://example.com/token",
              scopes: Object.fromEntries([...scopes].sort().map((s) => [s, s])),
            },
          },
        },
      },
    },
  };
}
