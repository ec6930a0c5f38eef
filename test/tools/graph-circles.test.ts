import assert from "node:assert/strict";
import { shortestCircle, stronglyConnected } from "../../tools/graph-circles.js";

const graphOf = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
const sorted = (components: Set<string>[]) => components.map((c) => [...c].sort().join(" ")).sort();

describe("circles in a directed graph (the import-direction check's)", () => {
  it("finds the strongly connected components, one per circle group and one per other node", () => {
    const graph = graphOf({
      a: ["b"],
      b: ["c", "d"],
      c: ["a"],
      d: ["e"],
      e: ["d"],
      f: ["a"],
      g: ["g"],
    });
    assert.deepEqual(sorted(stronglyConnected(graph)), ["a b c", "d e", "f", "g"]);
  });

  it("gives the shortest circle through a node, inside its component only", () => {
    const graph = graphOf({ a: ["b", "x"], b: ["c"], c: ["a"], x: ["a"], g: ["g"], h: [] });
    assert.deepEqual(shortestCircle("a", graph, new Set(["a", "b", "c", "x"])), ["a", "x", "a"]);
    assert.deepEqual(shortestCircle("a", graph, new Set(["a", "b", "c"])), ["a", "b", "c", "a"]);
    assert.deepEqual(shortestCircle("g", graph, new Set(["g"])), ["g", "g"]);
    assert.equal(shortestCircle("h", graph, new Set(["h"])), undefined);
  });

  it("walks a deep graph without overflowing the stack", () => {
    const n = 50_000;
    const graph = new Map<string, string[]>();
    for (let i = 0; i < n; i++) graph.set(`n${i}`, [`n${(i + 1) % n}`]);
    const components = stronglyConnected(graph);
    assert.equal(components.length, 1);
    assert.equal(components[0].size, n);
  });
});
