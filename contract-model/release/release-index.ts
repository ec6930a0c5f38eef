import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { canonicalJson } from "../canonical.js";
import { projectLayout } from "../project/project-layout.js";

/** Format tag of `contracts/release-index.json`. */
export const releaseIndexFormat = "skillpilot-release-index/1";

/**
 * One published version as `record-published` wrote it. Entries are never edited afterwards (L4).
 */
export interface ReleaseEntry {
  version: string;
  packageName: string;
  displayName: string;
  contractMajor: number;
  /** Date of the portal publication, `YYYY-MM-DD`. */
  publishedAt: string;
  /** sha256 of the published folder's SHA256SUMS. */
  contentSha256: string;
  snapshotSha256: string;
  /**
   * sha256 of the archives this toolchain built for the version; absent on an imported release
   * (its original bytes are kept instead, see `imported`).
   */
  archives?: {
    "plugin-install-bundle.tar": string;
    "plugin-install-bundle.tar.gz": string;
    "directory-submission.zip": string;
  };
  /**
   * Present when the release was published before this toolchain recorded it and was adopted with
   * `record-published --import`: where its bytes came from.
   */
  imported?: ImportProvenance;
  /**
   * The pre-submission evidence `record-published` found for this version: the passing
   * `verify --live` run against its contract, or the reason it was recorded without one. Absent on
   * imported releases and on entries written before evidence was required.
   */
  liveEvidence?: PublicationEvidence;
  /** Resource name → the UI URI this version bound; every one stays servable forever (L10). */
  ui: Record<string, string>;
  linePolicyRevision: number;
  /**
   * The state `record-published` left `release/line.json` in (publicationStatus PUBLISHED): the
   * recorded state later lines are checked against (L4, L11). Absent on entries written before it
   * was recorded; those imply PUBLISHED at `linePolicyRevision`.
   */
  line?: {
    policyRevision: number;
    supportLifecycle: string;
    publicationStatus: string;
    newSessionPolicy: string;
  };
}

/**
 * Why a release was recorded: a passing `verify --live` of its contract on a deployed server, or
 * an explicit waiver with its reason (a team without a reachable server).
 */
export type PublicationEvidence =
  | {
      kind: "verified";
      /** The verdict of the recorded run (always `LIVE_SERVER_SERVES`). */
      verdict: "LIVE_SERVER_SERVES";
      /** The origin of the server checked (scheme, host, port: never a path, query or token). */
      serverOrigin: string;
      /** When the run passed (ISO 8601). */
      checkedAt: string;
      /** sha256 of the candidate contract snapshot the server was judged against. */
      snapshotSha256: string;
    }
  | { kind: "waived"; reason: string };

/** How an imported release entered the records: its source and its original bytes. */
export interface ImportProvenance {
  /** `bundle`: an install bundle archive; `tools-manifest`: a submitted tools list + manifest. */
  source: "bundle" | "tools-manifest";
  /** Date of the import, `YYYY-MM-DD` (the publication date is `publishedAt`). */
  importedAt: string;
  /**
   * Every original file as given, kept byte-identical in the published folder: its file name, its
   * folder-relative path (`imported/<name>`) and its sha256.
   */
  files: { name: string; path: string; sha256: string }[];
  /**
   * The package name the release was published under when it is one of the plugin's former
   * identities (`formerIdentities` in schemas/plugin.json); absent when it is the permanent one.
   */
  formerPackageName?: string;
  /** The manifest and tools list read, as paths inside the bundle (bundle imports only). */
  manifest?: string;
  tools?: string;
}

/** The index file: the plugin and its releases in publication order. */
export interface ReleaseIndex {
  indexFormat: string;
  releases: ReleaseEntry[];
}

/**
 * Read the index; a missing file is an empty index. Throws on unreadable JSON (verify reports it).
 */
export async function readReleaseIndex(root: string): Promise<ReleaseIndex> {
  const text = await readFile(path.join(root, projectLayout.releaseIndex), "utf8").catch(
    () => undefined,
  );
  if (text === undefined) return { indexFormat: releaseIndexFormat, releases: [] };
  const parsed = JSON.parse(text) as Partial<ReleaseIndex>;
  return {
    indexFormat: parsed.indexFormat ?? "",
    releases: Array.isArray(parsed.releases) ? parsed.releases : [],
  };
}

/** Append one entry; the earlier entries are written back exactly as read. */
export async function appendReleaseEntry(root: string, entry: ReleaseEntry): Promise<void> {
  const index = await readReleaseIndex(root);
  const abs = path.join(root, projectLayout.releaseIndex);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(
    abs,
    canonicalJson({ indexFormat: releaseIndexFormat, releases: [...index.releases, entry] }),
  );
}
