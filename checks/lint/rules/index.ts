import type { LintRule } from "../lint-rule.js";
import { explicitAnnotations, truthfulAnnotations } from "./annotations.rule.js";
import { exactStringMatch, unreceiptedWrite } from "./c16.rule.js";
import { competingImperative } from "./imperative-channel.rule.js";
import { closedInput, derivableInput, freeTextInput, multiActionTool } from "./input-shape.rule.js";
import { itemLoop } from "./item-loop.rule.js";
import { mcpHeaderRules } from "./mcp-header.rule.js";
import { secretOutput } from "./secret-output.rule.js";
import { uiOnReadOnly } from "./ui-binding.rule.js";
import { writeEnvelope } from "./write-envelope.rule.js";

/**
 * The automatable part of the 11-point gate (G1–G4, G11) and C5/C16, then the constraints under
 * which hosts keep a tool at all (`x-mcp-header`), in reporting order.
 */
export const lintRules: readonly LintRule[] = [
  multiActionTool,
  derivableInput,
  itemLoop,
  competingImperative,
  writeEnvelope,
  freeTextInput,
  exactStringMatch,
  closedInput,
  uiOnReadOnly,
  explicitAnnotations,
  truthfulAnnotations,
  secretOutput,
  unreceiptedWrite,
  ...mcpHeaderRules,
];
