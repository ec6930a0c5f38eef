/**
 * Every path of a SkillPilot project, relative to its root (posix). Generator, checks, release
 * tooling, runtime and CLI read paths from here and nowhere else, so they always agree.
 */
export const projectLayout = {
  /** The contract's JSON Schemas (the single source of truth). */
  schemasDir: "schemas",
  /** Plugin identity and version layers (L1, L2). */
  pluginFile: "schemas/plugin.json",
  /** The contract line in force: lifecycle axes, policyRevision, active UI URIs (L10, L11). */
  lineFile: "release/line.json",
  /**
   * Further contract lines the repository serves besides `lineFile`, one `<name>.json` each (e.g.
   * an older contract major still SUPPORTED). Every non-RETIRED line is a column of the contract-test
   * matrix (L12.4).
   */
  linesDir: "release/lines",
  /** The first-party allowlist a WARN/BLOCK successor must be on (L11). */
  allowlistFile: "release/first-party-allowlist.json",
  /** Derived code and the canonical snapshot, written by the generator. */
  generatedDir: "generated",
  /** The canonical contract snapshot (Contract-Diff, lint and release read it). */
  snapshotFile: "generated/contract.snapshot.json",
  /** SKILL.md trees shipped in the bundle (L7). */
  skillsDir: "skills",
  /** MCP Apps page sources, one folder per page (L9). */
  uiDir: "ui",
  /** The curriculum the runtime serves. */
  curriculumFile: "curricula/skillpilot-basics.curriculum.json",
  /** Runtime data (SQLite database, generated secrets) unless configured elsewhere. */
  dataDir: "data",
  /** Optional runtime configuration file. */
  configFile: "skillpilot.config.json",
  /**
   * The reviewed example prompts of the ChatGPT directory submission: positive cases naming the
   * tools they trigger and negative cases that must trigger none.
   */
  submissionTestCases: "release/submission/test-cases.json",
  /** Waivers Contract-Diff accepts (L12.2). */
  waiversFile: "contracts/waivers.json",
  /** Parent of every published `openai/<plugin>/<version>` folder. */
  publishedDir: "contracts/published",
  /** Parent of every draft `openai/<plugin>/<version>-SNAPSHOT` folder. */
  draftsDir: "contracts/drafts",
  /** Append-only list of every published version (L4). */
  releaseIndex: "contracts/release-index.json",
  /**
   * Append-only record of the published releases whose tool definitions hosts no longer hold
   * (retired with a reason and date); every other published release's definitions stay live.
   */
  retiredDefinitions: "contracts/retired-definitions.json",
  /** The active review freeze (if any) and the freeze history (L3). */
  reviewFreeze: "contracts/review-freeze.json",
  /**
   * Append-only record of every passing `verify --live`: which candidate contract (by snapshot
   * hash) a deployed server (by origin) served, and when. `record-published` needs one for the
   * version it records.
   */
  liveEvidence: "contracts/live-evidence.json",
  /**
   * Append-only record of review history that never became a live definition: a rejected review,
   * a pre-submission candidate, each with its original bytes under `reviewHistoryDir`.
   */
  reviewHistory: "contracts/review-history.json",
  /** Parent of every review-history `openai/<plugin>/<version>-<status>` folder. */
  reviewHistoryDir: "contracts/review-history",
  /**
   * The immutable UI store, one file per URI ever activated or published (L10):
   * `contracts/ui/skillpilot/coach/<major>/sha256-<hex>/index.html`.
   */
  uiStore: "contracts/ui",
  /**
   * Append-only record of every UI URI ever activated or published, with its resource name (L10):
   * the store cannot prove its own completeness, this record can (verify and Contract-Diff check
   * every URI in it is still retained with identical bytes).
   */
  uiActivations: "contracts/ui-activations.json",
  /**
   * The statement of approved definitions (experimental, definition tags): append-only, one entry
   * per `record-published` and `retire-definitions`, each with every lane's served and live approved
   * definition sets, their tags and tool digests. Readable copy of what the JWS beside it signs.
   */
  approvedStatement: "contracts/approved-definitions.json",
  /** The statement as a compact JWS (EdDSA), signed by the release key. */
  approvedStatementJws: "contracts/approved-definitions.jws",
  /** The public key (Ed25519 JWK) that verifies the statement. */
  approvedStatementKey: "contracts/approved-definitions.jwk.json",
  /**
   * The development signing key used when no release key is configured (git-ignored, under the
   * runtime data folder); a statement it signs is marked development-signed.
   */
  developmentReleaseKey: "data/release-key.development.jwk.json",
} as const;

/** File names inside a draft or published version folder. */
export const releaseFiles = {
  /**
   * Sorted `sha256  path` lines of every other file in the folder: the folder's content identity.
   */
  manifest: "SHA256SUMS",
  /** The canonical contract snapshot this version ships (Contract-Diff reads it). */
  snapshot: "contract.snapshot.json",
  /** Deterministic USTAR tar, gzip-compressed: the plugin install bundle. */
  installBundle: "plugin-install-bundle.tar.gz",
  /** Deterministic ZIP of the same tree: the directory submission. */
  submissionZip: "directory-submission.zip",
  /** The ChatGPT directory form's import file (schema_version 1), built from the contract. */
  chatgptSubmission: "chatgpt-app-submission.json",
  /** What the Claude connector directory checks, checked against the contract. */
  claudeDirectoryReport: "claude-directory-report.json",
  /** The unpacked package tree both archives hold. */
  packageDir: "package",
} as const;

/** `contracts/drafts/openai/<plugin>/<version>-SNAPSHOT` */
export const draftDir = (plugin: string, version: string): string =>
  `contracts/drafts/openai/${plugin}/${version}-SNAPSHOT`;

/** `contracts/published/openai/<plugin>/<version>` */
export const publishedDir = (plugin: string, version: string): string =>
  `contracts/published/openai/${plugin}/${version}`;

/** `contracts/review-history/openai/<plugin>/<version>-<status>` */
export const reviewHistoryDir = (plugin: string, version: string, status: string): string =>
  `contracts/review-history/openai/${plugin}/${version}-${status}`;

/** `contracts/published/openai/<plugin>` — parent of every published version folder. */
export const publishedRoot = (plugin: string): string => `contracts/published/openai/${plugin}`;

/** `contracts/drafts/openai/<plugin>` — parent of every draft folder. */
export const draftsRoot = (plugin: string): string => `contracts/drafts/openai/${plugin}`;
