import type { TraceRule } from "../trace-rule.js";
import { callAfterStop, conflictNotReloaded } from "./conflict.rule.js";
import { recallWithoutConsent, successorWithoutConsent } from "./consent.rule.js";
import { contextAfterWrite, contextPolling, noFreshContext } from "./context.rule.js";
import {
  continuationAltered,
  continuationNotFollowed,
  continuationRepeated,
} from "./continuation.rule.js";
import { proseArgument, unissuedValue } from "./call-inputs.rule.js";
import { secondMutation } from "./mutation.rule.js";
import { keyReused, retryNewKey } from "./retry.rule.js";

/** The minimal turn contract as trace rules, in reporting order. */
export const traceRules: readonly TraceRule[] = [
  noFreshContext,
  contextPolling,
  contextAfterWrite,
  conflictNotReloaded,
  callAfterStop,
  continuationNotFollowed,
  continuationAltered,
  continuationRepeated,
  recallWithoutConsent,
  successorWithoutConsent,
  retryNewKey,
  keyReused,
  unissuedValue,
  secondMutation,
  proseArgument,
];
