import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import type { LaneModel } from "../model.js";
import type { SortedSources } from "./sources.js";

/** Also used for lanes.json's schema errors (`document-checks.ts`). */
export const LANES_INVALID = defineRule({
  id: "LANES_INVALID",
  family: "generator",
  severity: "error",
  summary:
    "schemas/lanes.json does not describe the provider lanes one server can serve: it fails " +
    "lanes.schema.json, names a lane or path twice, lacks the openai lane on /mcp, or takes an " +
    "internal adapter path.",
  message: {
    schema: "{error}",
    duplicate: "lane {what} {value} is declared twice",
    openai: "the openai lane must be declared with mcpPath /mcp (the plugin's public MCP URL)",
    internal: "lane {lane} takes {path}, the internal adapter path of the contract",
  },
});

/** The lanes of a contract without `schemas/lanes.json`: the OpenAI app alone. */
const defaultLanes: LaneModel[] = [
  {
    id: "openai",
    description: "The OpenAI MCP App (ChatGPT): the plugin's public MCP URL.",
    mcpPath: "/mcp",
    authentication: "tool-call-challenge",
    widgetMeta: "mcp-apps-and-openai",
  },
];

/** The provider lanes the contract declares (`schemas/lanes.json`), else the OpenAI app alone. */
export function lanesOf(sources: SortedSources): LaneModel[] {
  return sources.lanes ? (sources.lanes.json as { lanes: LaneModel[] }).lanes : defaultLanes;
}

/** Lanes that cannot be served side by side: duplicates, no openai lane on /mcp, internal paths. */
export function laneProblems(
  lanes: readonly LaneModel[],
  internalPath: string,
  file: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const what of ["id", "mcpPath"] as const) {
    const seen = new Set<string>();
    lanes.forEach((lane, i) => {
      if (seen.has(lane[what]))
        out.push(
          diagnose(
            LANES_INVALID,
            { variant: "duplicate", what, value: lane[what] },
            { file, pointer: `/lanes/${i}/${what}` },
          ),
        );
      seen.add(lane[what]);
    });
  }
  if (!lanes.some((l) => l.id === "openai" && l.mcpPath === "/mcp"))
    out.push(diagnose(LANES_INVALID, { variant: "openai" }, { file, pointer: "/lanes" }));
  lanes.forEach((lane, i) => {
    if (lane.mcpPath === internalPath || lane.mcpPath.startsWith("/internal/"))
      out.push(
        diagnose(
          LANES_INVALID,
          { variant: "internal", lane: lane.id, path: lane.mcpPath },
          { file, pointer: `/lanes/${i}/mcpPath` },
        ),
      );
  });
  return out;
}
