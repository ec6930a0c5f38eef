import { createHash } from "node:crypto";
import type { Diagnostic, Location, Severity } from "../../diagnostics/diagnostic.js";
import {
  type Bump,
  bumps,
  defineRule,
  diagnose,
  type DiffRule,
  type Pinning,
  ruleMessage,
} from "../../diagnostics/rule.js";
import type { MessageSpec, ParamsOf } from "../../diagnostics/message-template.js";
import { contentHash, type ContractDoc } from "../../contract-model/contract-doc.js";
import { maxBump, type RawFinding, type Witness } from "./diff-rule.js";
import { type PinningReason, pinningOf } from "./pinning.js";
import { diffChecks } from "./rules/index.js";
import { classify, declaredBump, type Classification } from "./semver-class.js";
import { unknownFormatNotes } from "./unknown-formats.js";
import { ValueChecker } from "./value-check.js";
import {
  currentFingerprint,
  isExpired,
  WAIVER_EXPIRED,
  WAIVER_NOT_ALLOWED,
  WAIVER_UNUSED,
  type Waiver,
} from "./waivers.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";

const VERSION_BUMP_TOO_LOW = defineRule({
  id: "VERSION_BUMP_TOO_LOW",
  family: "diff",
  severity: "error",
  summary: "The declared package version bump is lower than the contract change requires (L6).",
  message: {
    none: "package version {old} → {new} declares no bump, but the contract changes against {baseline} require {required}",
    bump: "package version {old} → {new} declares a {declared} bump, but the contract changes against {baseline} require {required}",
  },
});

/** One finding of a comparison, as reported in every output format. */
export interface DiffFinding {
  ruleId: string;
  severity: Severity;
  bump: Bump;
  tool?: string;
  pointer: string;
  message: string;
  witness?: Witness;
  /**
   * For clients that pin tool definitions: `descriptive` text, or `behavioural` (what a tool
   * accepts, returns or may do; an annotation flip toward less safety; text adding a URL, an
   * instruction or a tool reference). Not part of the fingerprint.
   */
  pinning: Pinning;
  /** Why a text change is behavioural. */
  pinningReasons?: PinningReason[];
  /**
   * `sha256:` + sha256(ruleId, tool, pointer, hash of the proven witness value — or of the
   * changed nodes when no witness was proven): the waiver key. It names no baseline, so the same break found
   * against several published versions is one finding with one fingerprint.
   */
  fingerprint: string;
  /** The first published (old) side this finding holds for. */
  baseline: string;
  /** Every old side it holds for, oldest first. */
  baselines: string[];
  location: Location;
  waiver?: { reason: string; approver: string; expires: string };
}

/** One old → new comparison. */
export interface Comparison {
  old: { file: string; packageVersion?: string; format: ContractDoc["format"] };
  new: { file: string; packageVersion?: string; format: ContractDoc["format"] };
  requiredBump: Bump;
  declaredBump?: Bump;
  classification: Classification;
  breaking: boolean;
}

/** The whole result of `skillpilot diff` (see `contract-diff-result.schema.json`). */
export interface DiffResult {
  requiredBump: Bump;
  classification: Classification;
  breaking: boolean;
  /** `behavioural` when any finding is, `descriptive` when all are, `none` without findings. */
  pinning: Pinning | "none";
  comparisons: Comparison[];
  findings: DiffFinding[];
  /** Problems that are not contract changes: version too low, waiver errors. */
  problems: Diagnostic[];
  /** Why nothing was compared (no published snapshot yet); absent when something was. */
  note?: string;
}

/**
 * Fingerprint of a finding: stable across message wording, key order, unrelated edits and
 * baselines. `evidence` is what the finding proves — its witness value, else the changed node.
 */
export function fingerprint(
  ruleId: string,
  tool: string | undefined,
  pointer: string,
  evidence: unknown,
): string {
  return (
    "sha256:" +
    createHash("sha256")
      .update([ruleId, tool ?? "", pointer, contentHash(evidence)].join("\0"))
      .digest("hex")
  );
}

/** Run every diff rule over one pair of contract documents. */
export function compareContracts(
  oldDoc: ContractDoc,
  newDoc: ContractDoc,
  checker = new ValueChecker(),
): DiffFinding[] {
  const out: DiffFinding[] = [];
  let names: Set<string> | undefined;
  const toolNames = () => (names ??= new Set([...oldDoc.tools.keys(), ...newDoc.tools.keys()]));
  const report = <M extends MessageSpec>(rule: DiffRule<M>, params: ParamsOf<M>, f: RawFinding) => {
    const file = f.at.side === "old" ? oldDoc.file : newDoc.file;
    const unverified = rule.bump === "major" && f.witness && !f.witness.verified;
    out.push({
      ruleId: rule.id,
      severity: rule.severity,
      bump: rule.bump,
      ...(f.tool ? { tool: f.tool } : {}),
      pointer: f.pointer,
      message:
        ruleMessage(rule, params) +
        (unverified
          ? " (no verified witness; reported because compatibility could not be proven)"
          : ""),
      ...(f.witness ? { witness: f.witness } : {}),
      ...pinningOf(rule, f.before, f.after, toolNames, f.tool),
      fingerprint: fingerprint(
        rule.id,
        f.tool,
        f.pointer,
        // An unproven witness (none found) shows nothing particular to this change: unproven
        // findings at one pointer would all share a fingerprint, so the change itself is hashed.
        f.witness?.verified ? f.witness.value : { before: f.before, after: f.after },
      ),
      baseline: oldDoc.file,
      baselines: [oldDoc.file],
      location: { file, pointer: f.at.pointer },
    });
  };
  for (const check of diffChecks) check.check({ old: oldDoc, new: newDoc, checker }, report);
  return out;
}

const waivable = new Map<string, boolean>(
  diffChecks.flatMap((c) => c.rules.map((r) => [r.id, r.waivable] as const)),
);
const waiverId = (w: Waiver) => w.fingerprint.slice(0, 19);

/**
 * Compare the new contract against each baseline, apply waivers, and decide: the minimum bump,
 * its L6 class, whether the change is breaking, and whether the declared version bump suffices.
 * `now` decides waiver expiry (injected so results are reproducible).
 */
export function diffContracts(
  baselines: readonly ContractDoc[],
  newDoc: ContractDoc,
  opts: {
    waivers: readonly Waiver[];
    waiverFile?: string;
    now: Date;
    /**
     * Check that the declared package version bump covers the required one (default true). Off
     * for a baseline that is a development commit rather than a release (CI's git merge base).
     */
    versionCheck?: boolean;
    /** Old → new fingerprints (default: `fingerprint-renames.json`). */
    fingerprintRenames?: Readonly<Record<string, string>>;
  },
): DiffResult {
  const { waivers, now } = opts;
  const checker = new ValueChecker();
  // A waiver written against a fingerprint the diff has since renamed matches its successor.
  const byFingerprint = new Map(
    waivers.map((w) => [currentFingerprint(w.fingerprint, opts.fingerprintRenames), w]),
  );
  const used = new Set<string>();
  const problems: Diagnostic[] = [];
  const findings: DiffFinding[] = [];
  // A finding that holds against several baselines is reported once, naming all of them.
  const reported = new Map<string, DiffFinding>();
  const comparisons: Comparison[] = [];
  for (const oldDoc of baselines) {
    let required: Bump = "none";
    for (const f of compareContracts(oldDoc, newDoc, checker)) {
      const earlier = reported.get(f.fingerprint);
      if (earlier) {
        // Same finding, one more baseline: the waiver decision made for it holds here too.
        earlier.baselines.push(oldDoc.file);
        if (!earlier.waiver) required = maxBump(required, f.bump);
        continue;
      }
      const w = byFingerprint.get(f.fingerprint);
      let finding = f;
      if (w && waivable.get(f.ruleId) === false) {
        used.add(w.fingerprint);
        problems.push(
          diagnose(WAIVER_NOT_ALLOWED, { waiver: waiverId(w), rule: f.ruleId }, f.location),
        );
      } else if (w) {
        used.add(w.fingerprint);
        if (!isExpired(w, now))
          finding = {
            ...f,
            severity: "note",
            waiver: { reason: w.reason, approver: w.approver, expires: w.expires },
          };
      }
      reported.set(f.fingerprint, finding);
      findings.push(finding);
      if (!finding.waiver) required = maxBump(required, f.bump);
    }
    const declared = declaredBump(oldDoc.packageVersion, newDoc.packageVersion);
    if (
      opts.versionCheck !== false &&
      declared !== undefined &&
      bumps.indexOf(declared) < bumps.indexOf(required)
    )
      problems.push(
        diagnose(
          VERSION_BUMP_TOO_LOW,
          {
            ...(declared === "none"
              ? { variant: "none" as const }
              : { variant: "bump" as const, declared }),
            old: String(oldDoc.packageVersion),
            new: String(newDoc.packageVersion),
            baseline: oldDoc.file,
            required,
          },
          {
            file: newDoc.file,
            pointer: newDoc.format === "snapshot" ? "/plugin/packageVersion" : "",
          },
        ),
      );
    comparisons.push({
      old: {
        file: oldDoc.file,
        format: oldDoc.format,
        ...(oldDoc.packageVersion ? { packageVersion: oldDoc.packageVersion } : {}),
      },
      new: {
        file: newDoc.file,
        format: newDoc.format,
        ...(newDoc.packageVersion ? { packageVersion: newDoc.packageVersion } : {}),
      },
      requiredBump: required,
      ...(declared !== undefined ? { declaredBump: declared } : {}),
      classification: classify(required),
      breaking: required === "major",
    });
  }
  for (const w of waivers) {
    const where = {
      file: opts.waiverFile ?? projectLayout.waiversFile,
      pointer: `/waivers/${waivers.indexOf(w)}`,
    };
    if (isExpired(w, now))
      problems.push(
        diagnose(
          WAIVER_EXPIRED,
          {
            waiver: waiverId(w),
            rule: w.ruleId ?? "?",
            approver: w.approver,
            expires: w.expires,
          },
          where,
        ),
      );
    else if (!used.has(w.fingerprint))
      problems.push(diagnose(WAIVER_UNUSED, { waiver: waiverId(w), rule: w.ruleId ?? "?" }, where));
  }
  problems.push(...unknownFormatNotes([...baselines, newDoc], (f) => checker.knowsFormat(f)));
  const requiredBump = comparisons.reduce<Bump>((b, c) => maxBump(b, c.requiredBump), "none");
  return {
    requiredBump,
    classification: classify(requiredBump),
    breaking: comparisons.some((c) => c.breaking),
    pinning:
      findings.length === 0
        ? "none"
        : findings.some((f) => f.pinning === "behavioural")
          ? "behavioural"
          : "descriptive",
    comparisons,
    findings,
    problems,
  };
}

/** Exit status of a diff: 1 when breaking or when any problem is an error, else 0. */
export function diffFailed(result: DiffResult): boolean {
  return result.breaking || result.problems.some((p) => p.severity === "error");
}
