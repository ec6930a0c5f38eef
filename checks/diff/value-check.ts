import { format as knownFormats, Validator } from "@cfworker/json-schema";
import type { Schema } from "../../json-schema/schema-facts.js";

/**
 * Validation of concrete values against schemas (draft 2020-12 with formats), used by the diff to
 * prove every witness: a witness is only "verified" when the validator agrees.
 *
 * The diff asks many one-off questions (is this candidate valid under that sub-schema?), so it uses
 * an interpreting validator, @cfworker/json-schema, which costs nothing to set up per schema —
 * compiling each of them with Ajv cost milliseconds apiece. The test suite re-proves the corpus
 * witnesses with Ajv, the validator the runtime uses.
 */
export class ValueChecker {
  private readonly cache = new WeakMap<object, Validator | null>();
  private readonly booleans = new Map<boolean, Validator>();

  /** The validator of a schema, or null when the schema cannot be read (then nothing is proven). */
  private validator(schema: Schema): Validator | null {
    // Schemas are compared values (normalised once, never mutated): identity is a safe key, and
    // equal schemas that are distinct objects merely get their own validator.
    if (typeof schema === "boolean") {
      let b = this.booleans.get(schema);
      if (!b) {
        b = new Validator(schema, "2020-12", true);
        this.booleans.set(schema, b);
      }
      return b;
    }
    let v = this.cache.get(schema);
    if (v === undefined) {
      try {
        v = new Validator(schema as never, "2020-12", true);
      } catch {
        v = null;
      }
      this.cache.set(schema, v);
    }
    return v;
  }

  /** True/false when the validator can decide, undefined when the schema cannot be used. */
  accepts(schema: Schema, value: unknown): boolean | undefined {
    const v = this.validator(schema);
    if (!v) return undefined;
    try {
      return v.validate(value).valid;
    } catch {
      // e.g. a pattern that is no valid regular expression
      return undefined;
    }
  }

  /** True when the checker validates values of this string format. */
  knowsFormat(format: string): boolean {
    return Object.hasOwn(knownFormats, format);
  }
}
