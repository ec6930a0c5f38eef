/**
 * How the coverage map says one edit is judged. Exactly one of:
 *
 * - `rule` with a witness: the rule reports the edit with a concrete value valid on one side and
 *   not the other (or, for a fact such as an annotation, an old call the changed fact affects);
 * - `rule` with `noWitness`: the rule reports the edit as a whole, and why no value can show it;
 * - `gap`: a wire-relevant edit no rule reports, with the reason it is accepted so;
 * - `notWire`: no wire-relevant change (text, order, a default written out), with the reason.
 */
export type Judgement =
  | { rule: string; noWitness?: undefined; gap?: undefined; notWire?: undefined }
  | { rule: string; noWitness: string; gap?: undefined; notWire?: undefined }
  | { gap: string; rule?: undefined; noWitness?: undefined; notWire?: undefined }
  | { notWire: string; rule?: undefined; noWitness?: undefined; gap?: undefined };

/** The status of an edit in the coverage report. */
export type CoverageStatus = "covered" | "accounted" | "not-wire-relevant";

/** The status a judgement declares (before its case demonstrates it). */
export function declaredStatus(j: Judgement): CoverageStatus {
  if (j.notWire !== undefined) return "not-wire-relevant";
  return j.rule !== undefined && j.noWitness === undefined ? "covered" : "accounted";
}

/** The one-line reason a judgement gives, for the coverage page. */
export function reasonOf(j: Judgement): string {
  if (j.notWire !== undefined) return `not wire-relevant: ${j.notWire}`;
  if (j.gap !== undefined) return `no rule: ${j.gap}`;
  if (j.noWitness !== undefined)
    return `judged as a whole by ${j.rule} without a witness: ${j.noWitness}`;
  return `${j.rule}, with a witness`;
}
