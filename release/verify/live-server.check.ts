import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { readDoc } from "../../checks/diff/baselines.js";
import { diffContracts } from "../../checks/diff/contract-diff.js";
import {
  listAllTools,
  type LiveClient,
  type LiveServerOptions,
  withLiveClient,
} from "../../checks/diff/live-server.js";
import { liveDefinitionHolders } from "../../evolution/approved-definitions.js";
import { type ContractDoc, parseContractDoc } from "../../contract-model/contract-doc.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import type { DiffFinding } from "../../checks/diff/contract-diff.js";
import type { LiveEvidence } from "../publish/live-evidence.js";
import { witnessText } from "./witness-text.js";

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

const LIVE_SERVER_TOOL_MISSING = defineRule({
  id: "LIVE_SERVER_TOOL_MISSING",
  family: "release",
  severity: "error",
  summary:
    "The live server does not list a tool the candidate package adds, or one that hosts hold: " +
    "the server deploys first (§10.2 MINOR rule); nothing is renamed or removed.",
  message: {
    new: "{url} does not serve {tool}, a tool the candidate package adds: deploy the server that serves it first, then submit; {witness}",
    held: "{url} does not serve {tool}, which {holder} holds: deploy a server that serves every held definition before submitting; {witness}",
  },
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

/** The findings of a live check and, when the server serves everything, the evidence to record. */
export interface LiveCheckResult {
  diagnostics: Diagnostic[];
  /** Present only when the verdict is LIVE_SERVER_SERVES for the candidate package. */
  evidence?: LiveEvidence;
}

/**
 * The pre-submission check (§10.2: the live server deploys first, as a superset): the live server
 * at `url` must already serve the candidate package (the project's generated snapshot) and every
 * live approved definition (each published release not retired, the draft under review freeze).
 * Its `tools/list` is judged by Contract-Diff with each of them as the old side, and every `ui://`
 * page they bind is read over MCP and hashed against the URI (L10). A tool the server does not
 * list is reported as "deploy the server first" (never as a removal), and every finding names its
 * witness call in the message. Reads only; the caller records `evidence`.
 */
export async function checkLiveServer(
  root: string,
  url: string,
  options: LiveServerOptions = {},
  now: Date = new Date(),
): Promise<LiveCheckResult> {
  const out: Diagnostic[] = [];
  const held: Held[] = [];
  const candidateBytes = await readFile(path.join(root, projectLayout.snapshotFile)).catch(
    () => undefined,
  );
  const candidate = await readDoc(root, projectLayout.snapshotFile, out);
  if (candidate) held.push({ label: candidateLabel, doc: candidate });
  const live = await liveDefinitionHolders(root);
  for (const holder of live.holders) {
    const doc = await readDoc(root, holder.snapshotFile, out);
    const label =
      holder.kind === "published"
        ? `published ${holder.version}`
        : `frozen draft ${holder.version}`;
    if (doc) held.push({ label, doc });
  }
  if (held.length === 0) return { diagnostics: out };
  const uris = [
    ...new Set(held.flatMap((h) => [...h.doc.tools.values()].flatMap((t) => t.uiUri ?? []))),
  ];
  let listed: { tools: unknown[]; pages: Map<string, string>; unlisted: Set<string> };
  try {
    listed = await withLiveClient(url, options, async (client) => {
      const { tools } = await listAllTools(client, options.limits?.maxPages);
      const unlisted = await servedUnlisted(client, held, tools);
      const pages = new Map<string, string>();
      for (const uri of uris.sort()) {
        const read = await client.readResource({ uri }).catch(() => undefined);
        const hash = read && contentHash(read.contents);
        if (hash) pages.set(uri, hash);
      }
      return { tools, pages, unlisted };
    });
  } catch (error) {
    const message = (error as Error).message.split("\n")[0];
    return {
      diagnostics: [
        ...out,
        diagnose(LIVE_SERVER_UNREACHABLE, { url, error: message }, { file: url }),
      ],
    };
  }
  const served = parseContractDoc({ tools: listed.tools }, url, out);
  if (!served) return { diagnostics: out };
  const heldTools = new Set(
    held.filter((h) => h.label !== candidateLabel).flatMap((h) => [...h.doc.tools.keys()]),
  );
  Object.assign(served, { uiBytes: listed.pages, uiComplete: true });
  // A superseded tool answers calls without being listed: the held definition is the one served
  // (the candidate contract keeps it unchanged, its adapter compiled against it).
  for (const name of listed.unlisted) {
    const tool = held.map((h) => h.doc.tools.get(name)).find((t) => t !== undefined);
    if (tool) served.tools.set(name, tool);
  }
  let all = true;
  for (const h of held) {
    const result = diffContracts([h.doc], served, { waivers: [], now, versionCheck: false });
    const breaking = result.findings.filter((f) => f.bump === "major");
    if (breaking.length === 0) continue;
    all = false;
    const findings = breaking.map((f) => liveFinding(f, h, url, heldTools));
    out.push(
      diagnose(
        LIVE_SERVER_BEHIND,
        {
          url,
          holder: h.label,
          count: breaking.length,
          first: `${findings[0].ruleId}: ${findings[0].message}`,
        },
        { file: h.doc.file },
      ),
      ...findings,
    );
  }
  if (!all) return { diagnostics: out };
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
  if (!candidate || !candidateBytes) return { diagnostics: out };
  return {
    diagnostics: out,
    evidence: {
      kind: "verified",
      verdict: "LIVE_SERVER_SERVES",
      serverOrigin: new URL(url).origin,
      checkedAt: now.toISOString(),
      snapshotSha256: createHash("sha256").update(candidateBytes).digest("hex"),
      packageVersion: candidate.packageVersion ?? "",
      holders: held.filter((h) => h.label !== candidateLabel).map((h) => h.label),
    },
  };
}

const candidateLabel = "the candidate package";

/**
 * One breaking finding as a live-check diagnostic. A tool the server does not list is not a
 * removal (the contract did not change, the deployment is behind): it says which side must move.
 * The message always names the witness, so the text output shows the call the server refuses.
 */
function liveFinding(
  f: DiffFinding,
  h: Held,
  url: string,
  heldTools: ReadonlySet<string>,
): Diagnostic {
  const data = {
    ...(f.tool ? { tool: f.tool } : {}),
    pointer: f.pointer,
    ...(f.witness ? { witness: f.witness } : {}),
  };
  const witness = witnessText(f.witness);
  if (f.ruleId === "TOOL_REMOVED" && f.tool) {
    const isNew = h.label === candidateLabel && !heldTools.has(f.tool);
    return diagnose(
      LIVE_SERVER_TOOL_MISSING,
      isNew
        ? { variant: "new", url, tool: f.tool, witness }
        : { variant: "held", url, tool: f.tool, holder: h.label, witness },
      { file: h.doc.file },
      { data },
    );
  }
  return {
    ruleId: f.ruleId,
    severity: f.severity,
    message: `${h.label} on ${url}: ${f.message}; ${witness}`,
    location: { file: h.doc.file },
    data,
  };
}

/** Arguments no closed input accepts: a probe that is refused before anything runs. */
const probeArguments = { "skillpilot-verify-live-probe": true };

/**
 * The held tools the server does not list but answers: superseded tools served through their
 * adapters. Each is called once with arguments its closed input refuses; a tool result (the
 * refusal) proves the name is served, a protocol error ("unknown tool") that it is not.
 */
async function servedUnlisted(
  client: LiveClient,
  held: readonly Held[],
  tools: readonly unknown[],
): Promise<Set<string>> {
  const listedNames = new Set(
    tools.map((t) => (t as { name?: unknown }).name).filter((n) => typeof n === "string"),
  );
  const wanted = new Set(held.flatMap((h) => [...h.doc.tools.keys()]));
  const served = new Set<string>();
  for (const name of [...wanted].sort()) {
    if (listedNames.has(name)) continue;
    const answered = await client.callTool({ name, arguments: probeArguments }).then(
      () => true,
      () => false,
    );
    if (answered) served.add(name);
  }
  return served;
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
