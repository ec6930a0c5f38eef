import { readFile } from "node:fs/promises";
import path from "node:path";
import type { JWK } from "jose";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { canonicalize } from "../../evolution/definition-tags/canonical-json.js";
import type { LaneEntry } from "../../evolution/definition-tags/statement.js";
import {
  publicKeyProblem,
  verifyStatement,
} from "../../evolution/definition-tags/statement-signature.js";
import { toolDigest } from "../../evolution/definition-tags/tool-digest.js";
import { defaultLiveReadLimits } from "../../checks/diff/live-read-limits.js";
import type { LiveServerOptions } from "../../checks/diff/live-server.js";

export const LIVE_STATEMENT_MISMATCH = defineRule({
  id: "LIVE_STATEMENT_MISMATCH",
  family: "release",
  severity: "error",
  summary:
    "The deployed server serves the repository's signed statement of approved definitions " +
    "(experimental), and every tool each of its lanes lists is a definition that statement approves.",
  message: {
    differs:
      "{url} serves another statement than {file}: {reason}; deploy the server built from this repository",
    refused: "{url}: the deployed statement does not verify with {key}: {reason}",
    tool: "{lane} lane at {url} lists {tool} with digest {digest}, which the statement approves on no set of that lane; deploy the server whose definitions the statement records",
    tag: "{lane} lane at {url} lists the tag {tag}, which the statement names on no set of that lane",
    unread: "{lane} lane at {url} could not be listed: {reason}",
    fetch: "{url}: the deployed statement could not be read: {reason}",
  },
});

export const LIVE_STATEMENT_ABSENT = defineRule({
  id: "LIVE_STATEMENT_ABSENT",
  family: "release",
  severity: "warning",
  summary:
    "The deployed server serves no signed statement of approved definitions, though the " +
    "repository has one: definition tags (experimental) are off there, or the deployment is older.",
  message: "{url} answers {status}: nothing proves which definitions the deployment approves",
});

/** The well-known paths the server serves the statement and its key at. */
const jwsPath = "/.well-known/skillpilot/approved-definitions.jws";
const jwkPath = "/.well-known/skillpilot/approved-definitions.jwk.json";

/** Extra request headers per lane id (a lane that signs in at connect needs its own token). */
export type LaneHeaders = Readonly<Record<string, Record<string, string>>>;

/**
 * `verify --live`, the statement part (experimental): when the repository has a signed statement,
 * the server at `url`'s origin must serve exactly it at its well-known address, it must verify with
 * the repository's public key, and every tool each lane of its latest entry lists (`tools/list`
 * under 2026-07-28, read raw so no field is dropped) must have its digest — recomputed, not the
 * one the server sends — in a set the statement approves for that lane, and the listing's tag must
 * be one of that lane's. Reads only.
 */
export async function checkLiveStatement(
  root: string,
  url: string,
  options: LiveServerOptions & { laneHeaders?: LaneHeaders } = {},
): Promise<Diagnostic[]> {
  const file = projectLayout.approvedStatementJws;
  const read = (rel: string) => readFile(path.join(root, rel), "utf8").catch(() => undefined);
  const [jws, jwkText] = await Promise.all([read(file), read(projectLayout.approvedStatementKey)]);
  if (jws === undefined || jwkText === undefined) return [];
  const limits = { ...defaultLiveReadLimits, ...options.limits };
  const get = (at: string, init: RequestInit = {}) =>
    fetch(new URL(at, url), {
      ...init,
      headers: { ...options.headers, ...(init.headers as Record<string, string>) },
      signal: AbortSignal.timeout(limits.timeoutMs),
    }).then(async (res) => ({ status: res.status, text: await boundedText(res, limits) }));
  const mismatch = (variant: string, args: Record<string, unknown>) =>
    diagnose(LIVE_STATEMENT_MISMATCH, { variant, url, ...args } as never, { file });
  let deployed: { status: number; text: string };
  let deployedKey: { status: number; text: string };
  try {
    [deployed, deployedKey] = await Promise.all([get(jwsPath), get(jwkPath)]);
  } catch (error) {
    return [mismatch("fetch", { reason: firstLine(error) })];
  }
  if (deployed.status === 404 || deployedKey.status === 404)
    return [
      diagnose(
        LIVE_STATEMENT_ABSENT,
        { url: new URL(jwsPath, url).href, status: `HTTP ${deployed.status}` },
        { file },
      ),
    ];
  if (deployed.status !== 200 || deployedKey.status !== 200)
    return [mismatch("differs", { file, reason: `HTTP ${deployed.status}/${deployedKey.status}` })];
  if (deployed.text.trim() !== jws.trim())
    return [mismatch("differs", { file, reason: "the compact JWS is not the same" })];
  let key: unknown;
  try {
    key = JSON.parse(jwkText);
    if (canonicalize(JSON.parse(deployedKey.text)) !== canonicalize(key))
      return [mismatch("differs", { file, reason: "the public key is not the same" })];
  } catch {
    return [mismatch("differs", { file, reason: "the public key is not JSON" })];
  }
  const keyFile = projectLayout.approvedStatementKey;
  const problem = publicKeyProblem(key);
  if (problem) return [mismatch("refused", { key: keyFile, reason: problem })];
  const verdict = await verifyStatement(deployed.text, key as JWK);
  if (!verdict.ok) return [mismatch("refused", { key: keyFile, reason: verdict.reason })];
  const latest = verdict.document.entries.at(-1);
  const lanePaths = await mcpPaths(root);
  const out: Diagnostic[] = [];
  for (const entry of latest?.lanes ?? []) {
    const at = lanePaths.get(entry.lane) ?? (entry.lane === "openai" ? "/mcp" : undefined);
    if (!at) continue;
    const laneUrl = new URL(at, url).href;
    const listed = await listRaw(laneUrl, limits.maxPages, (init) =>
      get(laneUrl, {
        ...init,
        headers: { ...(init.headers as object), ...options.laneHeaders?.[entry.lane] },
      }),
    ).catch((error: unknown) => ({
      error:
        firstLine(error) +
        (/HTTP 401/.test(firstLine(error))
          ? ` (it signs in at connect: pass --lane-header ${entry.lane}="Authorization: Bearer …")`
          : ""),
    }));
    if ("error" in listed) {
      out.push(mismatch("unread", { lane: entry.lane, url: laneUrl, reason: listed.error }));
      continue;
    }
    out.push(...laneFindings(entry, listed, laneUrl, mismatch));
  }
  return out;
}

/** The findings of one lane's listing against the statement's latest entry for that lane. */
function laneFindings(
  entry: LaneEntry,
  listed: { tools: unknown[]; tag?: unknown },
  url: string,
  mismatch: (variant: string, args: Record<string, unknown>) => Diagnostic,
): Diagnostic[] {
  const sets = [...(entry.served ? [entry.served] : []), ...entry.approved];
  const out: Diagnostic[] = [];
  for (const tool of listed.tools) {
    let digest: string;
    try {
      digest = toolDigest(tool);
    } catch (error) {
      out.push(mismatch("unread", { lane: entry.lane, url, reason: firstLine(error) }));
      continue;
    }
    const name = String((tool as { name: unknown }).name);
    if (!sets.some((s) => s.digests[name] === digest))
      out.push(mismatch("tool", { lane: entry.lane, url, tool: name, digest }));
  }
  if (listed.tag !== undefined && !sets.some((s) => s.tag === listed.tag))
    out.push(mismatch("tag", { lane: entry.lane, url, tag: String(listed.tag).slice(0, 80) }));
  return out;
}

/** Each lane's MCP path from the project's `schemas/lanes.json`. */
async function mcpPaths(root: string): Promise<Map<string, string>> {
  const text = await readFile(path.join(root, "schemas/lanes.json"), "utf8").catch(() => "{}");
  const doc = JSON.parse(text) as { lanes?: { id?: unknown; mcpPath?: unknown }[] };
  return new Map(
    (doc.lanes ?? [])
      .filter((l) => typeof l.id === "string" && typeof l.mcpPath === "string")
      .map((l) => [l.id as string, l.mcpPath as string]),
  );
}

const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "skillpilot-verify", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Every page of a `tools/list` under 2026-07-28, as JSON-RPC over HTTP (no field dropped). */
async function listRaw(
  url: string,
  maxPages: number,
  post: (init: RequestInit) => Promise<{ status: number; text: string }>,
): Promise<{ tools: unknown[]; tag?: unknown }> {
  const tools: unknown[] = [];
  let tag: unknown;
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await post({
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-method": "tools/list",
        "mcp-protocol-version": "2026-07-28",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: page + 1,
        method: "tools/list",
        params: { ...(cursor && { cursor }), _meta: envelope },
      }),
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status} from ${url}`);
    const json = JSON.parse(res.text.startsWith("{") ? res.text : "{}") as {
      result?: { tools?: unknown[]; tag?: unknown; nextCursor?: string };
    };
    if (!Array.isArray(json.result?.tools)) throw new Error("the answer is no tools/list result");
    tools.push(...json.result.tools);
    tag ??= json.result.tag;
    cursor = json.result.nextCursor;
    if (!cursor) return { tools, ...(tag !== undefined && { tag }) };
  }
  throw new Error(`tools/list goes on beyond ${maxPages} pages (raise the cap with --max-pages)`);
}

/** A response body as text, read no further than the configured bytes. */
async function boundedText(res: Response, limits: { maxBodyBytes: number }): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limits.maxBodyBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the server sent more than ${limits.maxBodyBytes / 1024 / 1024} MB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split("\n")[0];
