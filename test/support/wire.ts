/**
 * JSON as it arrives over the wire in a test: tool results, log lines, documents under test.
 * Assertions index it freely (`ctx.options[0].payload`); the assertion is the type check, so this
 * is the one place tests opt out of static types. Product code never uses it.
 */
// biome-ignore lint/suspicious/noExplicitAny: wire JSON read by assertions (see above)
export type Wire = any;

/** A JSON object from the wire. */
export type WireObject = Record<string, Wire>;
