import path from "node:path";
import type { JWK } from "jose";
import { canonicalize } from "../../evolution/definition-tags/canonical-json.js";
import { historyRewrite } from "../../evolution/definition-tags/statement.js";
import {
  publicKeyProblem,
  type StatementVerdict,
  verifyStatement,
} from "../../evolution/definition-tags/statement-signature.js";

/** What `statement verify` concluded. */
export type StatementFilesResult =
  | { kind: "verified"; development: boolean; summary: string }
  | { kind: "refused"; message: string }
  | { kind: "bad-input"; message: string };

/**
 * Verify a signed statement file with a public key file: the JWS itself, the readable `.json`
 * copy beside a `.jws` (when there is one) and, given an earlier statement, that its entries are
 * all kept. `read` reads a file as UTF-8 (injected so tests and the CLI share this).
 */
export async function verifyStatementFiles(
  files: { statement: string; key: string; previous?: string },
  io: { read: (file: string) => Promise<string>; root: string },
): Promise<StatementFilesResult> {
  const shown = (f: string) => path.relative(io.root, f) || f;
  const load = async (f: string) =>
    io.read(f).catch((e: NodeJS.ErrnoException) => {
      throw new BadInput(`cannot read ${shown(f)} (${e.code ?? "error"})`);
    });
  try {
    let jwk: unknown;
    try {
      jwk = JSON.parse(await load(files.key));
    } catch (e) {
      if (e instanceof BadInput) throw e;
      throw new BadInput(`${shown(files.key)} is not JSON`);
    }
    const keyProblem = publicKeyProblem(jwk);
    if (keyProblem) throw new BadInput(`${shown(files.key)}: ${keyProblem}`);
    const verdict = await verifyStatement(await load(files.statement), jwk as JWK);
    if (!verdict.ok) return { kind: "refused", message: verdict.reason };
    if (files.statement.endsWith(".jws")) {
      const copyFile = `${files.statement.slice(0, -".jws".length)}.json`;
      const copy = await io.read(copyFile).catch(() => undefined);
      if (copy !== undefined && !sameDocument(copy, verdict))
        return {
          kind: "refused",
          message: `${shown(copyFile)} differs from the statement ${shown(files.statement)} signs`,
        };
    }
    if (files.previous) {
      const earlier = await verifyStatement(await load(files.previous), jwk as JWK);
      if (!earlier.ok)
        return {
          kind: "refused",
          message: `the earlier statement ${shown(files.previous)}: ${earlier.reason}`,
        };
      const rewrite = historyRewrite(earlier.document, verdict.document);
      if (rewrite)
        return { kind: "refused", message: `the statement rewrites history: ${rewrite}` };
    }
    return { kind: "verified", development: verdict.development, summary: summary(verdict) };
  } catch (e) {
    if (e instanceof BadInput) return { kind: "bad-input", message: e.message };
    throw e;
  }
}

class BadInput extends Error {}

function sameDocument(text: string, verdict: StatementVerdict & { ok: true }): boolean {
  try {
    return canonicalize(JSON.parse(text)) === canonicalize(verdict.document);
  } catch {
    return false;
  }
}

function summary(verdict: StatementVerdict & { ok: true }): string {
  const { document: doc } = verdict;
  const last = doc.entries.at(-1)!;
  const lines = [
    `statement verified: ${doc.entries.length} entr${doc.entries.length === 1 ? "y" : "ies"}, ` +
      (verdict.development
        ? `development-signed (key ${verdict.kid}; not a release key)`
        : `signed by release key ${verdict.kid}`),
    `latest: entry ${last.sequence}, ${last.event.kind} ${last.event.version} on ${last.recordedAt}`,
  ];
  for (const lane of last.lanes) {
    const approved = lane.approved.map((a) => `${a.version} ${a.tag}`).join(", ") || "none";
    lines.push(`  ${lane.lane}: served ${lane.served?.tag ?? "unknown"}; approved ${approved}`);
  }
  return `${lines.join("\n")}\n`;
}
