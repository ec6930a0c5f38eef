import { securityScopes } from "../../../../checks/diff/rules/security-scopes.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/security-scopes.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, OAuth scopes: SECURITY_SCOPE_ADDED, SECURITY_AUTH_REQUIRED, SECURITY_SCOPE_REMOVED, SECURITY_INFO_MISSING, SECURITY_ANONYMOUS_ALLOWED", () => {
  proveByCorpus(securityScopes, [
    {
      rule: "SECURITY_SCOPE_ADDED",
      severity: "error",
      fires: "security-scope-added",
      pointer: "/tools/get_context/securitySchemes/scopes/coach.profile",
      message:
        /get_context now requires OAuth scope coach\.profile; tokens granted for the old contract lack it/,
      quiet: "guard-security-scope-removed",
    },
    {
      rule: "SECURITY_AUTH_REQUIRED",
      severity: "error",
      fires: "security-auth-required",
      pointer: "/tools/get_context/securitySchemes",
      message: /get_context no longer accepts anonymous calls/,
      quiet: { reversed: "security-auth-required" },
    },
    {
      rule: "SECURITY_SCOPE_REMOVED",
      severity: "note",
      fires: "guard-security-scope-removed",
      pointer: "/tools/get_context/securitySchemes/scopes/coach.profile",
      message: /get_context no longer requires OAuth scope coach\.profile/,
      quiet: "security-scope-added",
    },
    {
      rule: "SECURITY_INFO_MISSING",
      severity: "warning",
      fires: "guard-security-dropped-by-client",
      pointer: "/securitySchemes",
      message: /carries no security information \(old side: no tool has securitySchemes/,
      quiet: "security-scope-added",
    },
    {
      rule: "SECURITY_ANONYMOUS_ALLOWED",
      severity: "note",
      fires: "security-anonymous-allowed",
      pointer: "/tools/list_issues/securitySchemes",
      message: /list_issues now also accepts anonymous calls/,
      quiet: { reversed: "security-anonymous-allowed" },
    },
  ]);
});
