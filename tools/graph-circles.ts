/** Circles in a directed graph: the import graph of `import-direction.ts`. */

/**
 * Tarjan's algorithm: the strongly connected components of a directed graph (every node a key of
 * `graph`), iteratively, so a deep graph cannot overflow the stack.
 */
export function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): Set<string>[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: Set<string>[] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target))
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = new Set<string>();
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.add(member);
      } while (member !== frame.node);
      components.push(component);
    }
  }
  return components;
}

/**
 * The shortest circle from `start` back to itself through nodes of `component` only (breadth
 * first), as the path `start → … → start`; none when there is none.
 */
export function shortestCircle(
  start: string,
  graph: ReadonlyMap<string, readonly string[]>,
  component: ReadonlySet<string>,
): string[] | undefined {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== start; at = cameFrom.get(at!))
          path.splice(1, 0, at!);
        return [...path, start];
      }
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, node);
      queue.push(target);
    }
  }
  return undefined;
}
