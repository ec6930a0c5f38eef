import { canonicalJson } from "../../contract-model/canonical.js";
import { parseUiUri } from "../../contract-model/ui/ui-uri.js";
import type { LocatedRelease } from "./locate-release.js";

/** Format tag of the contract document an import records for a release it did not build. */
export const importedContractFormat = "skillpilot-imported-contract/1";

/** What the release records say about an imported release, beyond its own files. */
export interface ImportedIdentity {
  packageName: string;
  displayName: string;
  version: string;
  contractMajor: number;
  /** Resource name → content-addressed UI URI whose bytes are retained. */
  ui: Record<string, string>;
}

/**
 * The `contract.snapshot.json` of an imported release: the bytes of our contract snapshot when the
 * release shipped one, else a tools/list document (`{"tools":[…]}` with the descriptors exactly as
 * shipped) carrying `plugin.packageVersion` (so Contract-Diff checks the declared bump) and the
 * retained UI hashes. It holds no envelopes: a release that does not carry them neither adds nor
 * removes any. A pure function of the located release and the recorded identity, so `verify` can
 * derive it again from the kept original bytes.
 */
export function importedSnapshot(located: LocatedRelease, id: ImportedIdentity): Buffer {
  if (located.snapshot) return located.snapshot;
  const uiResources = Object.fromEntries(
    Object.values(id.ui).flatMap((uri) => {
      const parsed = parseUiUri(uri);
      return parsed ? [[uri, parsed.sha256]] : [];
    }),
  );
  return Buffer.from(
    canonicalJson({
      $comment:
        "Recorded by skillpilot record-published --import: the tools/list of a release published " +
        "before this toolchain recorded it, read from the original bytes kept under imported/.",
      importedFormat: importedContractFormat,
      contractMajor: id.contractMajor,
      plugin: {
        packageName: id.packageName,
        displayName: id.displayName,
        packageVersion: id.version,
        contractMajor: id.contractMajor,
      },
      tools: located.tools,
      ...(Object.keys(uiResources).length ? { uiResources } : {}),
    }),
    "utf8",
  );
}
