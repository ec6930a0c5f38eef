import {
  additionalOf,
  admitsType,
  declaredTypes,
  enumerated,
  forbiddenOf,
  isObject,
  propertiesOf,
  requiredOf,
  type JsonObject,
} from "../../json-schema/schema-facts.js";
import { flattenAllOf } from "./sample.js";
import type { ValueChecker } from "./value-check.js";

const objectsOnly = (s: JsonObject) => {
  const t = declaredTypes(s);
  return t.size === 1 && t.has("object");
};

/**
 * True only when no value can satisfy both schemas — what a `oneOf` needs of its branches. Proven
 * by disjoint type sets, by enumerated values the other side rejects, or (for object-only schemas)
 * by a property one side requires that the other forbids (`false`, `not: {required: [p]}`) or
 * constrains disjointly (tagged unions).
 * Anything else counts as possibly overlapping.
 */
export function provablyDisjoint(
  a: JsonObject,
  b: JsonObject,
  checker: ValueChecker,
  depth = 0,
): boolean {
  if (depth > 8) return false;
  const av = enumerated(a),
    bv = enumerated(b);
  if (av) return av.every((v) => checker.accepts(b, v) === false);
  if (bv) return bv.every((v) => checker.accepts(a, v) === false);
  const at = declaredTypes(a),
    bt = declaredTypes(b);
  if (![...at].some((t) => admitsType(bt, t) || (t === "number" && bt.has("integer")))) return true;
  if (!objectsOnly(a) || !objectsOnly(b)) return false;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const p of requiredOf(x)) {
      const py = p in propertiesOf(y) ? propertiesOf(y)[p] : additionalOf(y);
      if (py === false || forbiddenOf(y).has(p)) return true;
      const px = propertiesOf(x)[p];
      if (
        requiredOf(y).has(p) &&
        isObject(px) &&
        isObject(py) &&
        provablyDisjoint(flattenAllOf(px), flattenAllOf(py), checker, depth + 1)
      )
        return true;
    }
  }
  return false;
}
