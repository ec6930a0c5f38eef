import type { DiffCheck } from "../diff-rule.js";
import { annotationFlips } from "./annotations.rule.js";
import { listingChanges } from "./directory-listing.rule.js";
import { docsOnly } from "./docs-only.rule.js";
import { envelopeCompat } from "./envelope-compat.rule.js";
import { inputCompat } from "./input-compat.rule.js";
import { listingCache } from "./listing-cache.rule.js";
import { outputCompat } from "./output-compat.rule.js";
import { paramHeaders } from "./param-header.rule.js";
import { securityScopes } from "./security-scopes.rule.js";
import { skillChanges } from "./skills.rule.js";
import { taskSupport } from "./task-support.rule.js";
import { toolPresence } from "./tool-presence.rule.js";
import { uiBindingChanges } from "./ui-binding.rule.js";
import { uiBytes } from "./ui-bytes.rule.js";

/** Every Contract-Diff check, in reporting order. */
export const diffChecks: readonly DiffCheck[] = [
  toolPresence,
  inputCompat,
  outputCompat,
  paramHeaders,
  envelopeCompat,
  annotationFlips,
  securityScopes,
  taskSupport,
  uiBindingChanges,
  uiBytes,
  listingCache,
  skillChanges,
  listingChanges,
  docsOnly,
];
