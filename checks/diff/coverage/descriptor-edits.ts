import type { JsonObject } from "../../../json-schema/schema-facts.js";
import type { Judgement } from "./judgement.js";

/** A `tools/list` result as the generated cases write it. */
export interface Listing {
  tools: JsonObject[];
  ttlMs?: number;
  cacheScope?: string;
}

/** Writes one side of an edit into a listing: `tool` is the edited tool, `slot` a unique name. */
type Patch = (listing: Listing, tool: JsonObject, slot: string) => void;

/** A before/after pair for one descriptor or listing edit, and its judgement. */
export interface DescriptorEdit {
  before: Patch;
  after: Patch;
  judge: Judgement;
  /**
   * Edits of one group write the same fact (both UI binding fields, both places of the security
   * schemes, the cache hint): a composition takes at most one of a group.
   */
  group?: string;
}

const none: Patch = () => {};
const put =
  (fields: Partial<Listing>): Patch =>
  (l) => {
    Object.assign(l, fields);
  };
const meta = (tool: JsonObject): JsonObject => {
  tool._meta ??= {};
  return tool._meta as JsonObject;
};
const ui = (tool: JsonObject): JsonObject => {
  const m = meta(tool);
  m.ui ??= {};
  return m.ui as JsonObject;
};
const field =
  (key: string, value: unknown): Patch =>
  (_l, tool) => {
    tool[key] = value;
  };
const annotation =
  (key: string, value: unknown): Patch =>
  (_l, tool) => {
    tool.annotations = { ...(tool.annotations as JsonObject | undefined), [key]: value };
  };
const execution =
  (mode: string): Patch =>
  (_l, tool) => {
    tool.execution = { taskSupport: mode };
  };
const extraTool = (name: string) => ({
  name,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
});
const pair = (before: Patch, after: Patch, judge: Judgement, group?: string): DescriptorEdit => ({
  before,
  after,
  judge,
  ...(group ? { group } : {}),
});

const text = (rule: string) => ({ notWire: `text for people and models (${rule}, PATCH)` });
const defaultWritten = { notWire: "the MCP default written out or left out: the same hint" };

/** The four annotation hints: their MCP default and the rule that reports the unsafe flip. */
const hintRules = {
  readOnlyHint: { fallback: false, unsafe: "ANNOTATION_READ_ONLY_REMOVED", unsafeWhen: false },
  destructiveHint: { fallback: true, unsafe: "ANNOTATION_DESTRUCTIVE_ADDED", unsafeWhen: true },
  idempotentHint: { fallback: false, unsafe: "ANNOTATION_IDEMPOTENT_REMOVED", unsafeWhen: false },
  openWorldHint: { fallback: true, unsafe: "ANNOTATION_OPEN_WORLD_CHANGED", unsafeWhen: undefined },
} as const;

const relaxed: Judgement = {
  rule: "ANNOTATION_RELAXED",
  noWitness: "a safer hint affects no call a host makes, so nothing shows it",
};

/** Judge a hint going from `b` to `a` (effective values). */
function hintJudgement(hint: keyof typeof hintRules, b: boolean, a: boolean): Judgement {
  const h = hintRules[hint];
  if (a === b) return defaultWritten;
  const unsafe = h.unsafeWhen === undefined || a === h.unsafeWhen;
  return unsafe ? { rule: h.unsafe } : relaxed;
}

function hintEdits(hint: keyof typeof hintRules): Record<string, DescriptorEdit> {
  const d = hintRules[hint].fallback;
  const out: Record<string, DescriptorEdit> = {};
  for (const v of [true, false]) {
    out[`set=${v}`] = pair(none, annotation(hint, v), hintJudgement(hint, d, v));
    out[`unset=${v}`] = pair(annotation(hint, v), none, hintJudgement(hint, v, d));
    out[`change=${v}`] = pair(
      annotation(hint, !v),
      annotation(hint, v),
      hintJudgement(hint, !v, v),
    );
  }
  return out;
}

/** Which calls a task-support mode accepts: plain calls, task-augmented calls. */
const taskModes: Record<string, readonly string[]> = {
  forbidden: ["plain"],
  optional: ["plain", "task"],
  required: ["task"],
};
function taskJudgement(from: string, to: string): Judgement {
  if (from === to) return defaultWritten;
  const lost = taskModes[from].some((m) => !taskModes[to].includes(m));
  return lost ? { rule: "TOOL_TASK_SUPPORT_NARROWED" } : { rule: "TOOL_TASK_SUPPORT_WIDENED" };
}
function taskEdits(): Record<string, DescriptorEdit> {
  const out: Record<string, DescriptorEdit> = {};
  for (const mode of Object.keys(taskModes)) {
    out[`set=${mode}`] = pair(none, execution(mode), taskJudgement("forbidden", mode), "task");
    out[`unset=${mode}`] = pair(execution(mode), none, taskJudgement(mode, "forbidden"), "task");
  }
  for (const from of Object.keys(taskModes))
    for (const to of Object.keys(taskModes))
      if (from !== to)
        out[`change=${from}>${to}`] = pair(
          execution(from),
          execution(to),
          taskJudgement(from, to),
          "task",
        );
  return out;
}

const uiUri = (n: string) =>
  `ui://widget/${n}/sha256-${n === "b" ? "1".repeat(64) : "0".repeat(64)}/index.html`;
function bindingEdits(
  write: (tool: JsonObject, uri: string) => void,
): Record<string, DescriptorEdit> {
  const bind =
    (uri: string): Patch =>
    (_l, tool) =>
      write(tool, uri);
  const sameFamily = uiUri("a").replace("0".repeat(64), "2".repeat(64));
  return {
    set: pair(
      none,
      bind(uiUri("a")),
      {
        rule: "UI_BINDING_ADDED",
        noWitness: "a host that renders no UI ignores the binding; old calls keep their results",
      },
      "ui",
    ),
    unset: pair(bind(uiUri("a")), none, { rule: "UI_BINDING_REMOVED" }, "ui"),
    "change=same-resource": pair(
      bind(uiUri("a")),
      bind(sameFamily),
      {
        rule: "UI_URI_ROTATED",
        noWitness: "the same resource under a new content-addressed URI: a compatible UI fix",
      },
      "ui",
    ),
    "change=other-resource": pair(
      bind(uiUri("a")),
      bind(uiUri("b")),
      { rule: "UI_BINDING_CHANGED" },
      "ui",
    ),
  };
}

const visible =
  (...who: string[]): Patch =>
  (_l, tool) => {
    ui(tool).visibility = who;
  };

function securityEdits(place: "top" | "meta"): Record<string, DescriptorEdit> {
  const put =
    (schemes: unknown[]): Patch =>
    (_l, tool) => {
      if (place === "top") tool.securitySchemes = schemes;
      else meta(tool).securitySchemes = schemes;
    };
  const oauth = (...scopes: string[]) => ({ type: "oauth2", scopes });
  const g = "security";
  return {
    set: pair(
      none,
      put([oauth("read")]),
      {
        rule: "SECURITY_INFO_MISSING",
        noWitness:
          "one side carries no security information at all, so scopes are not compared and the " +
          "diff says so instead",
      },
      g,
    ),
    unset: pair(
      put([oauth("read")]),
      none,
      {
        rule: "SECURITY_INFO_MISSING",
        noWitness:
          "one side carries no security information at all, so scopes are not compared and the " +
          "diff says so instead",
      },
      g,
    ),
    "add=scope": pair(
      put([oauth("read")]),
      put([oauth("read", "write")]),
      { rule: "SECURITY_SCOPE_ADDED" },
      g,
    ),
    "add=noauth": pair(
      put([oauth("read")]),
      put([{ type: "noauth" }, oauth("read")]),
      { rule: "SECURITY_ANONYMOUS_ALLOWED" },
      g,
    ),
    "remove=scope": pair(
      put([oauth("read", "write")]),
      put([oauth("read")]),
      {
        rule: "SECURITY_SCOPE_REMOVED",
        noWitness: "fewer scopes refuse no old token, so no call shows it",
      },
      g,
    ),
    "remove=noauth": pair(
      put([{ type: "noauth" }, oauth("read")]),
      put([oauth("read")]),
      {
        rule: "SECURITY_AUTH_REQUIRED",
      },
      g,
    ),
    reorder: pair(
      put([oauth("read", "write")]),
      put([oauth("write", "read")]),
      {
        notWire: "scope order: the same grant",
      },
      g,
    ),
  };
}

/**
 * How every descriptor and listing edit of the model is built and judged, by location id then
 * by `kind` (`=variant`).
 */
export const descriptorEdits: Record<string, Record<string, DescriptorEdit>> = {
  "listing.tools": {
    add: pair(none, (l, _t, slot) => void l.tools.push(extraTool(`${slot}_added`)), {
      rule: "TOOL_ADDED",
      noWitness: "a new tool changes no call an old client makes",
    }),
    remove: pair((l, _t, slot) => void l.tools.push(extraTool(`${slot}_gone`)), none, {
      rule: "TOOL_REMOVED",
    }),
    reorder: pair(
      (l, _t, slot) => void l.tools.push(extraTool(`${slot}_1`), extraTool(`${slot}_2`)),
      (l, _t, slot) => void l.tools.push(extraTool(`${slot}_2`), extraTool(`${slot}_1`)),
      { notWire: "tool order in the listing" },
    ),
  },
  "listing.ttlMs": {
    set: pair(
      put({ cacheScope: "public" }),
      put({ cacheScope: "public", ttlMs: 60000 }),
      cacheChange(),
      "cache",
    ),
    unset: pair(
      put({ cacheScope: "public", ttlMs: 60000 }),
      put({ cacheScope: "public" }),
      cacheChange(),
      "cache",
    ),
    increase: pair(put({ ttlMs: 1000 }), put({ ttlMs: 60000 }), cacheChange(), "cache"),
    decrease: pair(put({ ttlMs: 60000 }), put({ ttlMs: 1000 }), cacheChange(), "cache"),
  },
  "listing.cacheScope": {
    set: pair(
      put({ ttlMs: 1000 }),
      put({ ttlMs: 1000, cacheScope: "public" }),
      cacheChange(),
      "cache",
    ),
    unset: pair(
      put({ ttlMs: 1000, cacheScope: "public" }),
      put({ ttlMs: 1000 }),
      cacheChange(),
      "cache",
    ),
    change: pair(
      put({ cacheScope: "public" }),
      put({ cacheScope: "private" }),
      cacheChange(),
      "cache",
    ),
  },
  name: {
    change: pair(
      (l, _t, slot) => void l.tools.push(extraTool(`${slot}_old`)),
      (l, _t, slot) => void l.tools.push(extraTool(`${slot}_new`)),
      { rule: "TOOL_REMOVED" },
    ),
  },
  title: textEdits("title", "TOOL_TITLE_CHANGED", field),
  description: textEdits("description", "TOOL_DESCRIPTION_CHANGED", field),
  "annotations.title": textEdits("title", "TOOL_TITLE_CHANGED", annotation),
  icons: {
    add: pair(none, field("icons", [{ src: "https://example.com/a.png" }]), iconsJudgement()),
    remove: pair(field("icons", [{ src: "https://example.com/a.png" }]), none, iconsJudgement()),
    change: pair(
      field("icons", [{ src: "https://example.com/a.png" }]),
      field("icons", [{ src: "https://example.com/b.png" }]),
      iconsJudgement(),
    ),
  },
  "annotations.readOnlyHint": hintEdits("readOnlyHint"),
  "annotations.destructiveHint": hintEdits("destructiveHint"),
  "annotations.idempotentHint": hintEdits("idempotentHint"),
  "annotations.openWorldHint": hintEdits("openWorldHint"),
  "execution.taskSupport": taskEdits(),
  "_meta.ui.resourceUri": bindingEdits((tool, uri) => {
    ui(tool).resourceUri = uri;
  }),
  "_meta.openai/outputTemplate": bindingEdits((tool, uri) => {
    meta(tool)["openai/outputTemplate"] = uri;
  }),
  "_meta.ui.visibility": {
    "set=model": pair(none, visible("model"), { rule: "UI_VISIBILITY_CHANGED" }),
    "set=app": pair(none, visible("app"), { rule: "UI_VISIBILITY_CHANGED" }),
    "set=app+model": pair(none, visible("app", "model"), defaultWritten),
    unset: pair(visible("model"), none, { rule: "UI_VISIBILITY_CHANGED" }),
    change: pair(visible("model"), visible("app"), { rule: "UI_VISIBILITY_CHANGED" }),
    add: pair(visible("app"), visible("app", "model"), { rule: "UI_VISIBILITY_CHANGED" }),
    remove: pair(visible("app", "model"), visible("app"), { rule: "UI_VISIBILITY_CHANGED" }),
    reorder: pair(visible("model", "app"), visible("app", "model"), {
      notWire: "visibility order: the same audiences",
    }),
  },
  securitySchemes: securityEdits("top"),
  "_meta.securitySchemes": securityEdits("meta"),
  outputSchema: {
    set: pair(
      none,
      (_l, tool, slot) => {
        tool.outputSchema = outputObject(slot);
      },
      {
        rule: "OUTPUT_NARROWED",
      },
      "output",
    ),
    unset: pair(
      (_l, tool, slot) => {
        tool.outputSchema = outputObject(slot);
      },
      none,
      {
        rule: "OUTPUT_TYPE_CHANGED",
      },
      "output",
    ),
  },
};

function outputObject(slot: string) {
  return { type: "object", properties: { [slot]: { type: "string" } }, required: [slot] };
}

function cacheChange(): Judgement {
  return {
    rule: "LISTING_CACHE_CHANGED",
    noWitness: "how long hosts may reuse the listing, not what a call or result may be",
  };
}

function iconsJudgement(): Judgement {
  return { notWire: "display metadata: how hosts draw the tool; no call or result changes" };
}

function textEdits(
  key: string,
  rule: string,
  write: (key: string, value: unknown) => Patch,
): Record<string, DescriptorEdit> {
  return {
    set: pair(none, write(key, "Text"), text(rule)),
    unset: pair(write(key, "Text"), none, text(rule)),
    change: pair(write(key, "Text"), write(key, "Other text"), text(rule)),
  };
}
