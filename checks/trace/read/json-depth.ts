/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max` levels, found without
 * recursion (an explicit stack), so a hostile value cannot overflow the call stack here either.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === "object" && item !== null) {
          nodes.push(item);
          depths.push(depth + 1);
        }
      }
    } else
      for (const key in node) {
        const item: unknown = (node as Record<string, unknown>)[key];
        if (typeof item === "object" && item !== null) {
          nodes.push(item);
          depths.push(depth + 1);
        }
      }
  }
  return false;
}
