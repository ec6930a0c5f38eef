import { annotationsMatchKind } from "./annotations-kind.rule.js";
import { closedInput } from "./closed-input.rule.js";
import { freeTextInput } from "./free-text-input.rule.js";
import { hintJustification } from "./hint-justification.rule.js";
import { invalidPattern } from "./pattern.rule.js";
import { prefixItems } from "./prefix-items.rule.js";
import type { GeneratorRule } from "./rule.js";
import { remoteRef, unresolvedRef } from "./schema-refs.rule.js";
import { keywordWrongType, unknownType } from "./schema-types.rule.js";
import { supersededTool } from "./superseded.rule.js";
import { toolName } from "./tool-name.rule.js";
import { toolNamesListed } from "./tool-names-listed.rule.js";
import { uiBinding } from "./ui-binding.rule.js";
import { unknownKeyword } from "./unknown-keyword.rule.js";

/** The generator's gate, in reporting order. */
export const generatorRules: readonly GeneratorRule[] = [
  unknownKeyword,
  unknownType,
  keywordWrongType,
  remoteRef,
  unresolvedRef,
  prefixItems,
  invalidPattern,
  toolName,
  supersededTool,
  toolNamesListed,
  closedInput,
  freeTextInput,
  annotationsMatchKind,
  hintJustification,
  uiBinding,
];
