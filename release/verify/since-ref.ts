import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { isCommit } from "../../contract-model/history/git-history.js";

const VERIFY_SINCE_INVALID = defineRule({
  id: "VERIFY_SINCE_INVALID",
  family: "release",
  severity: "error",
  summary:
    "verify --since names no commit of this repository: a mistyped baseline would leave the " +
    "line, the release index and the published folders unchecked against it (L4, L11).",
  message: {
    form: "--since {since:json} is not of the form git:<REF> (e.g. git:origin/main)",
    unknown:
      "--since {since:json}: {ref:json} is not a commit of this repository (a typo, or a shallow clone without it: fetch it first)",
  },
});

/**
 * The baseline of `verify --since`, checked before anything is verified against it: `git:` and a
 * ref that resolves to a commit. A problem is returned as a diagnostic (usage, exit 2).
 */
export async function checkSinceRef(root: string, since: string): Promise<Diagnostic | undefined> {
  const ref = /^git:(.+)$/.exec(since)?.[1];
  const at = { file: "--since" };
  if (!ref) return diagnose(VERIFY_SINCE_INVALID, { variant: "form", since }, at);
  if (await isCommit(root, ref)) return undefined;
  return diagnose(VERIFY_SINCE_INVALID, { variant: "unknown", since, ref }, at);
}
