/**
 * The `contracts/` layout (L3, L4, L10), as repository-relative posix paths. One place names every
 * folder and file so prepare, freeze, record-published, verify and the runtime agree.
 */
export const contractsLayout = {
  /** Append-only list of every published version. */
  releaseIndex: "contracts/release-index.json",
  /** The active review freeze (if any) and the freeze history. */
  reviewFreeze: "contracts/review-freeze.json",
  /**
   * Retained UI artifacts, one file per URI ever published:
   * `contracts/ui/skillpilot/coach/<major>/sha256-<hex>/index.html`.
   */
  uiStore: "contracts/ui",
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
  /** The unpacked package tree both archives hold. */
  packageDir: "package",
} as const;

/** `contracts/drafts/openai/<plugin>/<version>-SNAPSHOT` */
export const draftDir = (plugin: string, version: string): string =>
  `contracts/drafts/openai/${plugin}/${version}-SNAPSHOT`;

/** `contracts/published/openai/<plugin>/<version>` */
export const publishedDir = (plugin: string, version: string): string =>
  `contracts/published/openai/${plugin}/${version}`;

/** `contracts/published/openai/<plugin>` — parent of every published version folder. */
export const publishedRoot = (plugin: string): string => `contracts/published/openai/${plugin}`;

/** `contracts/drafts/openai/<plugin>` — parent of every draft folder. */
export const draftsRoot = (plugin: string): string => `contracts/drafts/openai/${plugin}`;
