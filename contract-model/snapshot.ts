import { readFile } from "node:fs/promises";
import path from "node:path";
import { jsonError } from "../diagnostics/json-error.js";

/** One tool entry of the contract snapshot (its tools/list descriptor plus its kind). */
export interface SnapshotTool {
  name: string;
  title: string;
  description: string;
  kind: "read" | "write" | "app-only";
  annotations: {
    title?: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  securitySchemes?: { type: string; scopes: string[] }[];
  _meta?: Record<string, unknown>;
}

/** The canonical contract snapshot written to generated/contract.snapshot.json. */
export interface ContractSnapshot {
  snapshotFormat: string;
  contractMajor: number;
  plugin: Record<string, unknown> & {
    packageName: string;
    displayName: string;
    packageVersion: string;
  };
  line: Record<string, unknown>;
  envelopes: Record<string, Record<string, unknown>>;
  tools: SnapshotTool[];
}

export const snapshotPath = "generated/contract.snapshot.json";

/** Read a project's generated contract snapshot. */
export async function readSnapshot(root: string, file = snapshotPath): Promise<ContractSnapshot> {
  const abs = path.resolve(root, file);
  const text = await readFile(abs, "utf8").catch(() => {
    throw new Error(`${file} not found: run \`skillpilot generate\` first`);
  });
  try {
    return JSON.parse(text) as ContractSnapshot;
  } catch {
    throw new Error(`${file} is not valid JSON: ${jsonError(text)?.message ?? "unreadable"}`);
  }
}
