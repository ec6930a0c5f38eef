import { InvalidArgumentError, Option, type Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { defaultArchiveLimits, megabytes } from "../../release/import/archive-limits.js";
import { capArgument } from "../cap-argument.js";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { semverArgument } from "../semver-argument.js";
import { emitReport, formatOption } from "../report.js";
import { projectPaths, rootRelative } from "./root.js";

/** `--published-at`, `--date`: a calendar date YYYY-MM-DD, or a usage error (exit 2). */
export const isoDate = (value: string): string => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
    throw new InvalidArgumentError("expected YYYY-MM-DD");
  return value;
};

/** `--sha256`: 64 hex digits, as release notes publish a bundle's hash. */
const sha256Argument = (value: string): string => {
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new InvalidArgumentError("expected 64 hex digits");
  return value.toLowerCase();
};

interface RecordOptions {
  publishedAt?: string;
  format: DiagnosticFormat;
  import?: boolean;
  bundle?: string;
  tools?: string;
  manifest?: string;
  sha256?: string;
  withoutLiveEvidence?: string;
  releaseKey?: string;
  review?: "rejected" | "candidate";
  reviewedAt?: string;
  note?: string;
  maxExpandedMb?: number;
  maxEntryMb?: number;
}

/** `--without-live-evidence`: a reason, which the release index keeps. */
const reasonArgument = (value: string): string => {
  if (!value.trim()) throw new InvalidArgumentError("give the reason there is no live evidence");
  return value.trim();
};

/** What is wrong with the combination of import options, or undefined. */
function importUsage(opts: RecordOptions): string | undefined {
  const given = (
    ["bundle", "tools", "manifest", "sha256", "maxExpandedMb", "maxEntryMb"] as const
  ).filter((k) => opts[k]);
  const reviewOnly = (["review", "reviewedAt", "note"] as const).filter((k) => opts[k]);
  const flag = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  if (!opts.import && reviewOnly.length) return `--${flag(reviewOnly[0])} needs --import`;
  if (!opts.import) return given.length ? `--${flag(given[0])} needs --import` : undefined;
  if (opts.withoutLiveEvidence !== undefined)
    return "--without-live-evidence is for a release this toolchain froze, not for --import";
  if (opts.bundle && (opts.tools || opts.manifest))
    return "--import takes either --bundle FILE or --tools FILE --manifest FILE, not both";
  if (!opts.bundle && !(opts.tools && opts.manifest))
    return "--import needs --bundle FILE, or --tools FILE and --manifest FILE";
  if (opts.sha256 && !opts.bundle) return "--sha256 is the hash of the --bundle file";
  if (opts.review) {
    if (opts.publishedAt)
      return "--review records a version that was not published: no --published-at";
    if (!opts.reviewedAt) return "--review needs --reviewed-at (the review decision's date)";
    return undefined;
  }
  if (opts.reviewedAt || opts.note)
    return `--${opts.reviewedAt ? "reviewed-at" : "note"} needs --review`;
  if (!opts.publishedAt) return "--import needs --published-at (the portal publication date)";
  return undefined;
}

/** `skillpilot record-published X`: record a version after the portal published it. */
export function registerRecordPublishedCommand(program: Command): void {
  program
    .command("record-published")
    .summary("Record a version the portal has published")
    .description(
      "After portal publication of <version>: copy its frozen draft to " +
        "contracts/published/openai/<plugin>/<version>/, retain its UI bytes under " +
        "contracts/ui/, append contracts/release-index.json and end the freeze. " +
        "Needs a passing `verify --live` of the frozen contract (recorded in " +
        "contracts/live-evidence.json) unless --without-live-evidence gives a reason. " +
        "Never overwrites. With --import: adopt a release published without this toolchain " +
        "(also one published under a former package name declared in schemas/plugin.json), " +
        "from its original bytes, kept byte for byte. With --import --review: record a rejected " +
        "review or a pre-submission candidate as review history (never a live definition).",
    )
    .argument(
      "<version>",
      "the published version (must be frozen, with unchanged bytes)",
      semverArgument,
    )
    .option("--published-at <date>", "publication date YYYY-MM-DD (default: today, UTC)", isoDate)
    .option(
      "--without-live-evidence <reason>",
      "record without a passing verify --live (no reachable server); the reason is kept in " +
        "the release index entry and printed",
      reasonArgument,
    )
    .option(
      "--release-key <file>",
      "the release key signing contracts/approved-definitions.jws (default: $SKILLPILOT_RELEASE_KEY, else a development key)",
    )
    .option("--import", "record a release published without this toolchain, from its bytes")
    .option("--bundle <file>", "with --import: its install bundle (.tar.gz, .tgz, .tar)")
    .option("--tools <file>", "with --import: its submitted tools list (tools.json)")
    .option("--manifest <file>", "with --import: its package manifest (plugin.json)")
    .option("--sha256 <hex>", "with --bundle: the bundle's published sha256", sha256Argument)
    .addOption(
      new Option(
        "--review <status>",
        "with --import: record the bytes as review history, not as a published release " +
          "(rejected: the portal refused it; candidate: prepared before submission)",
      ).choices(["rejected", "candidate"]),
    )
    .option("--reviewed-at <date>", "with --review: the review decision's date YYYY-MM-DD", isoDate)
    .option("--note <text>", "with --review: what the review said, or what the candidate was for")
    .option(
      "--max-expanded-mb <n>",
      `with --import: refuse a bundle that expands beyond n MB (default ${megabytes(defaultArchiveLimits.maxExpandedBytes)})`,
      capArgument,
    )
    .option(
      "--max-entry-mb <n>",
      `with --import: refuse a bundle file, manifest or tools list beyond n MB (default ${megabytes(defaultArchiveLimits.maxEntryBytes)})`,
      capArgument,
    )
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "recorded (or already recorded with the same bytes)",
        findings: "refused",
        usage: "usage or I/O error, or an unreadable or malformed import",
      }),
    )
    .action(async (version: string, opts: RecordOptions, command: Command) => {
      const usage = importUsage(opts);
      if (usage) {
        process.stderr.write(`skillpilot: ${usage}\n`);
        process.exitCode = ExitCode.usage;
        return;
      }
      const root = projectPaths(command).root;
      if (opts.import) {
        const at = (file: string) => rootRelative(command, file);
        const limits = {
          ...defaultArchiveLimits,
          ...(opts.maxExpandedMb && { maxExpandedBytes: opts.maxExpandedMb * 1024 * 1024 }),
          ...(opts.maxEntryMb && { maxEntryBytes: opts.maxEntryMb * 1024 * 1024 }),
        };
        const files = opts.bundle
          ? { kind: "bundle" as const, bundle: at(opts.bundle), sha256: opts.sha256 }
          : {
              kind: "tools-manifest" as const,
              tools: at(opts.tools!),
              manifest: at(opts.manifest!),
            };
        const result = opts.review
          ? await (await import("../../release/import/import-review.js")).importReview(
              root,
              version,
              files,
              { status: opts.review, reviewedAt: opts.reviewedAt!, note: opts.note, limits },
            )
          : await (await import("../../release/import/import-release.js")).importRelease(
              root,
              version,
              files,
              {
                publishedAt: opts.publishedAt!,
                limits,
                releaseKey: opts.releaseKey && rootRelative(command, opts.releaseKey),
              },
            );
        process.exitCode = emitReport(result.diagnostics, opts.format, {
          summary: result.message,
          ...(result.inputInvalid ? { failWith: ExitCode.usage } : {}),
        });
        return;
      }
      const { recordPublished } = await import("../../release/publish/record-published.js");
      const result = await recordPublished(root, version, {
        publishedAt: opts.publishedAt,
        withoutLiveEvidence: opts.withoutLiveEvidence,
        releaseKey: opts.releaseKey && rootRelative(command, opts.releaseKey),
      });
      process.exitCode = emitReport(result.diagnostics, opts.format, { summary: result.message });
    });
}
