import { defineRule } from "../../diagnostics/rule.js";

/** The rules of `record-published --import`: what it refuses, and why nothing was written. */
export const IMPORT_INPUT_INVALID = defineRule({
  id: "IMPORT_INPUT_INVALID",
  family: "release",
  severity: "error",
  summary:
    "An imported bundle, package manifest or tools list is unreadable or malformed; nothing is " +
    "recorded (L4).",
  message: {
    unreadable: "{file} cannot be read: {error}",
    archive: "{file} is not a readable bundle: {error}",
    expandsBeyond:
      "{file} expands beyond {mb} MB; nothing was read past that cap (raise it with --max-expanded-mb)",
    entryBeyond:
      "{file}: {path} expands beyond {mb} MB; nothing was read past that cap (raise it with --max-entry-mb)",
    tooLarge: "{file} is larger than {mb} MB; it was not read (raise the cap with {flag})",
    kind: "{file}: a bundle is a .tar.gz, .tgz or .tar file",
    noManifest:
      "{file} holds no package manifest (plugin.json or manifest.json at its root or one folder down)",
    manyManifests: "{file} holds several package manifests ({found}); expected one",
    notJson: "{file} is not valid JSON ({error})",
    manifestField: "{file}: the package manifest has no {field}",
    manifestShape: "{file}: the package manifest is not a JSON object",
    noTools:
      "{file} holds no tools list (the manifest's tools pointer, contract.snapshot.json or tools.json next to the manifest)",
    toolsShape:
      '{file} is not a tools list: expected {"tools":[…]}, an array of tool descriptors or a contract snapshot',
    toolShape: "{file}: tool #{index} is not a tool descriptor ({why})",
    toolTwice: "{file}: tool {tool} is listed twice",
  },
});

export const IMPORT_HASH_MISMATCH = defineRule({
  id: "IMPORT_HASH_MISMATCH",
  family: "release",
  severity: "error",
  summary:
    "An imported bundle's bytes disagree with a hash it names or was published with (a " +
    "SHA256SUMS inside it, a ui:// URI's content hash, --sha256); nothing is recorded (L4, L10).",
  message: {
    bundle: "{file} has sha256 {actual}, not the {expected} given with --sha256",
    listed: "{file}: {path} does not match its sha256 in {sums}",
    missing: "{file}: {path} is listed in {sums} but not in the bundle",
    malformed: "{file}: {sums} has a malformed line {line:json}",
    ui: "{file}: {path} ({uri}) hashes to sha256-{actual}, not to the hash its URI names",
  },
});

export const IMPORT_VERSION_MISMATCH = defineRule({
  id: "IMPORT_VERSION_MISMATCH",
  family: "release",
  severity: "error",
  summary:
    "The version to import differs from the version its package manifest or contract snapshot " +
    "carries (L2, L4).",
  message: "{file} carries version {found:json}, not {version}",
});

export const IMPORT_PACKAGE_NAME = defineRule({
  id: "IMPORT_PACKAGE_NAME",
  family: "release",
  severity: "error",
  summary:
    "An imported release must be a release of this plugin: its package name is the one in " +
    "schemas/plugin.json, or a former one declared there under formerIdentities (L1, L12.1).",
  message:
    "{file} is package {found:json}, but this project is {name} (former package names declared under formerIdentities in schemas/plugin.json: {former})",
});

export const IMPORT_UI_MISSING = defineRule({
  id: "IMPORT_UI_MISSING",
  family: "release",
  severity: "error",
  summary:
    "A content-addressed ui:// URI the imported release binds has no bytes: neither in the " +
    "bundle nor retained under contracts/ui/; a published URI stays servable (L10).",
  message:
    "{uri} ({name}) is bound by the imported release, but its bytes are neither in {file} nor retained under contracts/ui/",
});

export const IMPORT_UI_UNADDRESSED = defineRule({
  id: "IMPORT_UI_UNADDRESSED",
  family: "release",
  severity: "warning",
  summary:
    "The imported release binds a UI URI that is not content-addressed; the UI store cannot " +
    "retain it, and Contract-Diff reports it once no longer served (L10).",
  message: "{uri} ({name}) is not a content-addressed UI URI; its bytes are not retained",
});

export const IMPORT_WHILE_FROZEN = defineRule({
  id: "IMPORT_WHILE_FROZEN",
  family: "release",
  severity: "error",
  summary:
    "Recording an imported release moves release/line.json to PUBLISHED, which would change the " +
    "contract frozen for review; import before freezing (L3, L4).",
  message:
    "recording {version} moves {lineFile} to PUBLISHED and so changes the contract frozen for review in {frozen}; unfreeze it first (and prepare and freeze again after the import)",
});

export const REVIEW_HISTORY_EXISTS = defineRule({
  id: "REVIEW_HISTORY_EXISTS",
  family: "release",
  severity: "error",
  summary:
    "A review-history record of the version and status exists with other bytes; review history " +
    "is append-only and never overwritten (L4).",
  message: {
    recorded: "{version} ({status}) is already recorded in {dir} with other bytes",
    folder:
      "{dir} exists but {version} ({status}) is not in {record}; a record writes a new folder only",
  },
});
