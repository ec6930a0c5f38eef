import type { Options } from "ajv/dist/2020.js";

/** Ajv's hook over the source code of every validator it compiles. */
type CodeProcess = NonNullable<NonNullable<Options["code"]>["process"]>;

let compilations = 0;

/**
 * How many JSON Schema validators the project's Ajv instances (`createAjv`) have compiled in this
 * process so far: each one is Ajv generating and evaluating a validator's code, so a schema Ajv
 * finds in its cache (the same schema object, or a known `$id`) does not count. The generated
 * validators in `generated/` are precompiled and never count. A server compiles its configuration
 * and curriculum schemas at start; after that the number should not move.
 */
export function schemaCompilations(): number {
  return compilations;
}

/** Ajv's `code.process` hook counting each compilation, then running `next` (if any). */
export function countingCodeProcess(next?: CodeProcess): CodeProcess {
  return (code, schema) => {
    compilations++;
    return next ? next(code, schema) : code;
  };
}
