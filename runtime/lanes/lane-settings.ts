import { declaredLanes, type LaneSettings, primaryLaneId } from "./lane.js";
import { lanePublicUrlProblem, shownUrl } from "./lane-public-url.js";
import { resourceMetadataUrlOf } from "./resource-metadata.js";

/** What the lanes are resolved from (a subset of the configuration, completed with the bound port). */
export interface LaneInput {
  /** The server's public origin (`publicUrl`, the bound loopback origin, or the plugin's). */
  origin: string;
  /** The server binds a loopback interface. */
  loopback: boolean;
  /** Whether a host name is a loopback name (`127.0.0.1`, `localhost`, …). */
  isLoopbackHost(hostname: string): boolean;
  /** The configured `lanePublicUrls` by lane id. */
  lanePublicUrls?: Readonly<Record<string, string>>;
}

/**
 * Each lane's public MCP URL, which is its OAuth resource: the configured `lanePublicUrls` entry,
 * else the server's public origin plus the lane's path. A configured URL must sit on the lane's
 * `publicOrigins` (loopback origins pass on a loopback server), the primary lane's URL is the
 * server's own, and no two lanes share a resource: a token names one audience, so one resource
 * serving two lanes would let a token of one act on the other. A problem is thrown as the error
 * `invalid` makes of its message (the caller's start-up error).
 */
export function resolveLanes(
  input: LaneInput,
  invalid: (message: string) => Error,
): LaneSettings[] {
  const configured = input.lanePublicUrls ?? {};
  const lanes = declaredLanes();
  for (const id of Object.keys(configured).sort())
    if (!lanes.some((l) => l.id === id))
      throw invalid(
        `lanePublicUrls names lane "${id}", which schemas/lanes.json does not declare ` +
          `(lanes: ${lanes.map((l) => l.id).join(", ")})`,
      );
  if (configured[primaryLaneId] !== undefined)
    throw invalid(
      "the openai lane is published at publicUrl + /mcp; set publicUrl instead of lanePublicUrls.openai",
    );
  const byResource = new Map<string, string>();
  return lanes.map((lane) => {
    const own = configured[lane.id];
    let resource = `${input.origin}${lane.mcpPath}`;
    if (own !== undefined) {
      let url: URL;
      try {
        url = new URL(own);
      } catch {
        throw invalid(`lanePublicUrls.${lane.id} is not a URL: ${JSON.stringify(own)}`);
      }
      const allowed: readonly string[] =
        "publicOrigins" in lane ? (lane.publicOrigins as readonly string[]) : [input.origin];
      if (!allowed.includes(url.origin) && !(input.loopback && input.isLoopbackHost(url.hostname)))
        throw invalid(
          `lane ${lane.id}: public URL ${shownUrl(url)} is outside its allowlist ` +
            `(${allowed.join(", ")}, publicOrigins in schemas/lanes.json)`,
        );
      const problem = lanePublicUrlProblem(url);
      if (problem) throw invalid(`lane ${lane.id}: public URL ${shownUrl(url)} ${problem}`);
      resource = url.origin + url.pathname.replace(/\/+$/, "");
    }
    const other = byResource.get(resource);
    if (other)
      throw invalid(
        `lanes ${other} and ${lane.id} are both published at ${resource}; each lane needs its ` +
          "own public URL (its OAuth resource)",
      );
    byResource.set(resource, lane.id);
    return {
      id: lane.id,
      mcpPath: lane.mcpPath,
      resource,
      resourceMetadataUrl: resourceMetadataUrlOf(resource),
      atConnect: lane.authentication === "at-connect",
      openaiMeta: lane.widgetMeta === "mcp-apps-and-openai",
    };
  });
}
