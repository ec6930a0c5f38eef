import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { CompactSign, type JWK } from "jose";
import { canonicalJson } from "../../contract-model/canonical.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { readReleaseIndex } from "../../contract-model/release/release-index.js";
import { descriptorsOf, liveApprovedDefinitions } from "../../evolution/approved-definitions.js";
import {
  liveDefinitionSets,
  servedDefinitionSet,
} from "../../evolution/definition-tags/approved-tags.js";
import { canonicalize } from "../../evolution/definition-tags/canonical-json.js";
import {
  historyRewrite,
  nextEntry,
  statementComment,
  type StatementDocument,
  type StatementEntry,
  statementFormat,
  trackedDrafts,
} from "../../evolution/definition-tags/statement.js";
import {
  publicKeyProblem,
  statementAlgorithm,
  statementJwsType,
  verifyStatement,
} from "../../evolution/definition-tags/statement-signature.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { projectLaneIds } from "./lane-ids.js";
import { releaseKeyEnv, type SigningKey, signingKey } from "./release-key.js";

export const APPROVED_STATEMENT_REFUSED = defineRule({
  id: "APPROVED_STATEMENT_REFUSED",
  family: "release",
  severity: "error",
  summary:
    "The signed statement of approved definitions is append-only and signed by one release key: " +
    "a step is refused when the committed statement no longer verifies, or when it would be " +
    "signed by another key than the one that signed it.",
  message: {
    tampered:
      "{file} no longer verifies with {key}: {reason}; earlier entries are never rewritten (restore the committed statement)",
    incomplete: "{file} exists without {missing}; restore the committed statement",
    key: "cannot sign {file}: {reason}",
    releaseKeyMissing:
      "{file} is signed by the release key {kid}; set {env} (or --release-key) to that key's file, a development key never replaces it",
    keyChanged:
      "{file} is signed by the release key {kid}, not by {other}; a statement is signed by one release key",
  },
});

/** A statement ready to take the entry of a step that passed every check. */
export interface StatementWriter {
  /** Append the state after the step, sign the whole statement, write its three files. */
  append(event: StatementEntry["event"], recordedAt: string): Promise<string>;
}

/**
 * Open the project's statement for one release step, before the step writes anything: the
 * committed statement (if any) must verify with the committed public key, and the signing key
 * (`keyFile`, else SKILLPILOT_RELEASE_KEY, else the development key) must be the release key that
 * signed it — a development-signed statement may be re-signed by any key once verified. Refusals
 * are diagnostics and write nothing.
 */
export async function openStatement(
  root: string,
  options: { keyFile?: string } = {},
): Promise<{ diagnostics: Diagnostic[]; writer?: StatementWriter }> {
  const file = projectLayout.approvedStatement;
  const refuse = (
    variant: "tampered" | "incomplete" | "key" | "releaseKeyMissing" | "keyChanged",
    args: Record<string, string>,
  ) => ({
    diagnostics: [
      diagnose(APPROVED_STATEMENT_REFUSED, { variant, file, ...args } as never, { file }),
    ],
  });
  const read = (rel: string) => readFile(path.join(root, rel), "utf8").catch(() => undefined);
  const [json, jws, jwkText] = await Promise.all([
    read(file),
    read(projectLayout.approvedStatementJws),
    read(projectLayout.approvedStatementKey),
  ]);
  let earlier: StatementDocument | undefined;
  if (json !== undefined || jws !== undefined || jwkText !== undefined) {
    const missing = [
      [json, file],
      [jws, projectLayout.approvedStatementJws],
      [jwkText, projectLayout.approvedStatementKey],
    ]
      .filter(([text]) => text === undefined)
      .map(([, name]) => name as string);
    if (missing.length) return refuse("incomplete", { missing: missing.join(" and ") });
    const tampered = (reason: string) =>
      refuse("tampered", { key: projectLayout.approvedStatementKey, reason });
    let jwk: unknown;
    try {
      jwk = JSON.parse(jwkText!);
    } catch {
      return tampered("the public key is not JSON");
    }
    const keyProblem = publicKeyProblem(jwk);
    if (keyProblem) return tampered(keyProblem);
    const verdict = await verifyStatement(jws!, jwk as JWK);
    if (!verdict.ok) return tampered(verdict.reason);
    let copy: string;
    try {
      copy = canonicalize(JSON.parse(json!));
    } catch {
      return tampered(`${file} is not JSON`);
    }
    if (copy !== canonicalize(verdict.document))
      return tampered(
        `${file} differs from the statement ${projectLayout.approvedStatementJws} signs`,
      );
    earlier = verdict.document;
  }
  let key: SigningKey;
  try {
    key = await signingKey(root, options.keyFile);
  } catch (e) {
    return refuse("key", { reason: (e as Error).message });
  }
  if (earlier && earlier.signer.kid !== key.kid && !earlier.signer.development)
    return key.development
      ? refuse("releaseKeyMissing", { kid: earlier.signer.kid, env: releaseKeyEnv })
      : refuse("keyChanged", { kid: earlier.signer.kid, other: key.kid });
  return {
    diagnostics: [],
    writer: { append: (event, at) => append(root, earlier, key, event, at) },
  };
}

async function append(
  root: string,
  earlier: StatementDocument | undefined,
  key: SigningKey,
  event: StatementEntry["event"],
  recordedAt: string,
): Promise<string> {
  const lanes = await projectLaneIds(root);
  const defs = await liveApprovedDefinitions(root);
  const snapshot = await readFile(path.join(root, projectLayout.snapshotFile)).catch(
    () => undefined,
  );
  const listed = snapshot && descriptorsOf(snapshot);
  const index = await readReleaseIndex(root);
  const entries = earlier?.entries ?? [];
  const entry = nextEntry(entries, {
    event,
    recordedAt,
    lanes,
    served: listed ? servedDefinitionSet(listed.tools, lanes) : null,
    sets: liveDefinitionSets(defs, lanes),
    defs,
    publishedAt: new Map(index.releases.map((r) => [r.version, r.publishedAt])),
  });
  const doc: StatementDocument = {
    $comment: statementComment,
    format: statementFormat,
    tracking: trackedDrafts,
    signer: { kid: key.kid, development: key.development },
    entries: [...entries, entry],
  };
  // Built by appending, but checked all the same: the one invariant this file exists for.
  const rewrite = earlier && historyRewrite(earlier, doc);
  if (rewrite) throw new Error(`refusing to rewrite the statement's history: ${rewrite}`);
  const payload = canonicalize(doc);
  const jws = await new CompactSign(new TextEncoder().encode(payload))
    .setProtectedHeader({ alg: statementAlgorithm, typ: statementJwsType, kid: key.kid })
    .sign(key.privateKey);
  await key.persist?.();
  const at = (rel: string) => path.join(root, rel);
  await mkdir(path.dirname(at(projectLayout.approvedStatement)), { recursive: true });
  await writeFile(at(projectLayout.approvedStatementKey), canonicalJson(key.publicJwk));
  await writeFile(at(projectLayout.approvedStatementJws), `${jws}\n`);
  await writeFile(at(projectLayout.approvedStatement), canonicalJson(doc));
  return (
    `appended entry ${entry.sequence} to ${projectLayout.approvedStatement} ` +
    `(signed by ${key.development ? "the development key: development-signed" : `release key ${key.kid}`})`
  );
}
