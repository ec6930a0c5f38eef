/**
 * The deepest nesting of arrays and objects a JSON-RPC body may have. The contract's inputs nest a
 * few levels and the protocol's `_meta` a few more; deeper bodies are refused before anything walks
 * them with recursion (`JSON.stringify`, structured cloning, validators), which would exhaust the
 * stack at a few thousand levels.
 */
export const MAX_JSON_DEPTH = 256;

/** What one walk over a parsed JSON value found. */
export interface JsonShape {
  /** Nested deeper than the limit (the walk stopped there). */
  tooDeep: boolean;
  /** An own property named `__proto__` somewhere inside (as `JSON.parse` keeps it). */
  prototypeKey: boolean;
}

/**
 * Walk a parsed JSON value once, without recursion (an explicit stack), so a value of any depth is
 * safe to inspect: its nesting depth against `maxDepth` and whether it holds an own `__proto__` key.
 */
export function jsonShape(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonShape {
  let prototypeKey = false;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== "object" || node === null) continue;
    if (depth > maxDepth) return { tooDeep: true, prototypeKey };
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
      continue;
    }
    if (Object.hasOwn(node, "__proto__")) prototypeKey = true;
    for (const key in node) stack.push([(node as Record<string, unknown>)[key], depth + 1]);
  }
  return { tooDeep: false, prototypeKey };
}
