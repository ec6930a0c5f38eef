import { createHash } from "node:crypto";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { readDoc } from "../../checks/diff/baselines.js";
import { diffContracts } from "../../checks/diff/contract-diff.js";
import {
  listAllTools,
  type LiveServerOptions,
  withLiveClient,
} from "../../checks/diff/live-server.js";
import { liveDefinitionHolders } from "../../contract-model/approved-definitions.js";
import { type ContractDoc, parseContractDoc } from "../../contract-model/contract-doc.js";
import { projectLayout } from "../../contract-model/project-layout.js";

const LIVE_SERVER_UNREACHABLE = defineRule({
  id: "LIVE_SERVER_UNREACHABLE",
  family: "release",
  severity: "error",
  summary:
    "The live server named for the pre-submission check could not be listed over MCP, so " +
    "nothing proves it serves the definitions hosts hold (§10.2).",
  message:
    "{url}: {error}; check the address (the server's /mcp endpoint), the --header it needs and --protocol-era",
});

const LIVE_SERVER_BEHIND = defineRule({
  id: "LIVE_SERVER_BEHIND",
  family: "release",
  severity: "error",
  summary:
    "The live server does not yet serve a tool definition that hosts hold or that the candidate " +
    "package submits: deploy the server as a superset first, then submit (§10.2 MINOR rule).",
  message:
    "{url} does not serve {holder}'s definitions: {count} breaking finding(s); {first} — deploy the server that serves old and new definitions before submitting",
});

const LIVE_SERVER_SERVES = defineRule({
  id: "LIVE_SERVER_SERVES",
  family: "release",
  severity: "note",
  summary:
    "The live server serves every tool definition checked: the candidate package's and each " +
    "live approved one.",
  message:
    "{url} serves the definitions of {holders} ({tools} tools listed, {pages} UI pages read)",
});

/** One set of definitions the live server must serve, and who holds it. */
interface Held {
  label: string;
  doc: ContractDoc;
}

/**
 * The pre-submission check (§10.2: the live server deploys first, as a superset): the live server
 * at `url` must already serve the candidate package (the project's generated snapshot) and every
 * live approved definition (each published release not retired, the draft under review freeze).
 * Its `tools/list` is judged by Contract-Diff with each of them as the old side, and every `ui://`
 * page they bind is read over MCP and hashed against the URI (L10). Reads only.
 */
export async function checkLiveServer(
  root: string,
  url: string,
  options: LiveServerOptions = {},
  now: Date = new Date(),
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const held: Held[] = [];
  const candidate = await readDoc(root, projectLayout.snapshotFile, out);
  if (candidate) held.push({ label: "the candidate package", doc: candidate });
  const live = await liveDefinitionHolders(root);
  for (const holder of live.holders) {
    const doc = await readDoc(root, holder.snapshotFile, out);
    const label =
      holder.kind === "published"
        ? `published ${holder.version}`
        : `frozen draft ${holder.version}`;
    if (doc) held.push({ label, doc });
  }
  if (held.length === 0) return out;
  const uris = [
    ...new Set(held.flatMap((h) => [...h.doc.tools.values()].flatMap((t) => t.uiUri ?? []))),
  ];
  let listed: { tools: unknown[]; pages: Map<string, string> };
  try {
    listed = await withLiveClient(url, options, async (client) => {
      const { tools } = await listAllTools(client, options.limits?.maxPages);
      const pages = new Map<string, string>();
      for (const uri of uris.sort()) {
        const read = await client.readResource({ uri }).catch(() => undefined);
        const hash = read && contentHash(read.contents);
        if (hash) pages.set(uri, hash);
      }
      return { tools, pages };
    });
  } catch (error) {
    const message = (error as Error).message.split("\n")[0];
    return [...out, diagnose(LIVE_SERVER_UNREACHABLE, { url, error: message }, { file: url })];
  }
  const served = parseContractDoc({ tools: listed.tools }, url, out);
  if (!served) return out;
  Object.assign(served, { uiBytes: listed.pages, uiComplete: true });
  let all = true;
  for (const h of held) {
    const result = diffContracts([h.doc], served, { waivers: [], now, versionCheck: false });
    const breaking = result.findings.filter((f) => f.bump === "major");
    if (breaking.length === 0) continue;
    all = false;
    out.push(
      diagnose(
        LIVE_SERVER_BEHIND,
        {
          url,
          holder: h.label,
          count: breaking.length,
          first: `${breaking[0].ruleId}: ${breaking[0].message}`,
        },
        { file: h.doc.file },
      ),
      ...breaking.map((f) => ({
        ruleId: f.ruleId,
        severity: f.severity,
        message: `${h.label} on ${url}: ${f.message}`,
        location: { file: h.doc.file },
        data: {
          ...(f.tool ? { tool: f.tool } : {}),
          pointer: f.pointer,
          ...(f.witness ? { witness: f.witness } : {}),
        },
      })),
    );
  }
  if (all)
    out.push(
      diagnose(
        LIVE_SERVER_SERVES,
        {
          url,
          holders: held.map((h) => h.label).join(", "),
          tools: served.tools.size,
          pages: listed.pages.size,
        },
        { file: url },
      ),
    );
  return out;
}

/** sha256 of a page read over MCP (its text as UTF-8, or its base64 blob's bytes). */
function contentHash(contents: readonly { text?: string; blob?: string }[]): string | undefined {
  const first = contents[0];
  if (!first) return undefined;
  const bytes =
    typeof first.text === "string"
      ? Buffer.from(first.text, "utf8")
      : typeof first.blob === "string"
        ? Buffer.from(first.blob, "base64")
        : undefined;
  return bytes && createHash("sha256").update(bytes).digest("hex");
}
