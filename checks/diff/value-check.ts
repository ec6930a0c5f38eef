import type { ValidateFunction } from "ajv";
import { createAjv } from "../../json-schema/ajv.js";
import type { Schema } from "../../json-schema/schema-facts.js";

/**
 * Validation of concrete values against schemas with the project's Ajv (2020-12 + formats).
 * The diff uses it to prove every witness: a witness is only "verified" when Ajv agrees.
 * Foreign tools/list documents may carry vendor keywords, so strict mode is off here.
 */
export class ValueChecker {
  // No meta-schema validation (foreign documents are compared, not judged here) and no code
  // optimisation pass: each witness schema is compiled once and run a handful of times.
  private readonly ajv = createAjv({
    strict: false,
    validateFormats: true,
    allowUnionTypes: true,
    validateSchema: false,
    code: { optimize: false },
    // Unknown formats are reported once each in the diff's own result (`unknownFormatNotes`),
    // not as Ajv's warning line per schema on stderr.
    logger: { log() {}, warn() {}, error: (...args: unknown[]) => console.error(...args) },
  });
  private readonly cache = new Map<string, ValidateFunction | null>();

  /**
   * The compiled validator of a schema, or null when Ajv cannot compile it (then nothing is
   * proven).
   */
  validator(schema: Schema): ValidateFunction | null {
    const key = JSON.stringify(schema);
    let fn = this.cache.get(key);
    if (fn === undefined) {
      try {
        fn = this.ajv.compile(schema);
      } catch {
        fn = null;
      }
      this.cache.set(key, fn);
    }
    return fn;
  }

  /** True/false when Ajv can decide, undefined when the schema does not compile. */
  accepts(schema: Schema, value: unknown): boolean | undefined {
    const fn = this.validator(schema);
    return fn ? (fn(value) as boolean) : undefined;
  }

  /** True when the checker validates values of this string format (ajv-formats knows it). */
  knowsFormat(format: string): boolean {
    return format in this.ajv.formats;
  }

  /** The first Ajv error keyword for a rejected value (e.g. "enum", "pattern"), for messages. */
  rejection(schema: Schema, value: unknown): string | undefined {
    const fn = this.validator(schema);
    if (!fn || fn(value)) return undefined;
    const e = fn.errors?.[0];
    return e ? `${e.instancePath || "/"} ${e.message ?? e.keyword}` : undefined;
  }
}
