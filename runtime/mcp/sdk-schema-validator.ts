import type { jsonSchemaValidator } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { createAjv } from "../../json-schema/ajv.js";

/**
 * The JSON Schema validator the SDK's `Server` instances of one endpoint share. The endpoint builds
 * a `Server` per request; left to itself each would hold a validator of its own, and any schema the
 * SDK ever validated with it (elicitation answers, today; the coach's tool input is validated by
 * the generated validators, never here) would be compiled again on every request. One Ajv per
 * endpoint, made by `createAjv`, keeps a compiled schema for the next request and counts every
 * compilation on `/metrics`. Ajv is created on first use: an endpoint that never needs it pays
 * nothing. Options as the SDK's own default: lenient about unknown keywords, schemas not
 * meta-validated, every error reported.
 */
export function sdkSchemaValidator(): jsonSchemaValidator {
  let inner: AjvJsonSchemaValidator | undefined;
  return {
    getValidator(schema) {
      inner ??= new AjvJsonSchemaValidator(
        createAjv({ strict: false, validateSchema: false, allErrors: true }),
      );
      return inner.getValidator(schema);
    },
  };
}
