/**
 * Deterministic synthetic contracts for the diff benchmark: N tools shaped like the coach's, and a
 * mutated "after".
 */

const sid = {
  type: "string",
  pattern: "^sps_[A-Za-z0-9_-]{22,64}$",
  description: "Opaque learning session handle minted by the first-party launch.",
};
const actions = Array.from({ length: 10 }, (_, i) => `action_${i}`);

/**
 * One synthetic tool (about 2.3 KB of JSON) with nested inputs and outputs, a union, arrays and
 * enums.
 */
export function synthTool(i: number): Record<string, unknown> {
  const write = i % 3 !== 0;
  return {
    name: `synth_tool_${String(i).padStart(5, "0")}`,
    title: `Synthetic tool ${i}`,
    description:
      `Synthetic ${write ? "write" : "read"} tool number ${i}, shaped ` +
      `like a coach tool: nested objects, a tagged union, arrays of ` +
      `objects and enums, so the diff walks realistic schemas.`,
    annotations: {
      readOnlyHint: !write,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    securitySchemes: [{ type: "oauth2", scopes: [write ? "coach.write" : "coach.read"] }],
    inputSchema: {
      type: "object",
      additionalProperties: false,
      required: ["learningSessionId", "expectedStateVersion", "clientRequestId", "decision"],
      properties: {
        learningSessionId: sid,
        expectedStateVersion: {
          type: "integer",
          minimum: 0,
          description: "Monotonic revision of the learner state.",
        },
        clientRequestId: {
          type: "string",
          format: "uuid",
          description: "Fresh UUID per new write.",
        },
        decision: { enum: ["achieved", "needsMorePractice", `variant${i % 7}`] },
        assessments: {
          type: "array",
          maxItems: 20,
          items: {
            type: "object",
            additionalProperties: false,
            required: ["passed"],
            properties: { passed: { type: "boolean" }, confidence: { enum: ["low", "high"] } },
          },
        },
        option: {
          oneOf: [
            {
              type: "object",
              additionalProperties: false,
              required: ["kind", "goalId"],
              properties: {
                kind: { const: "goal" },
                goalId: { type: "string", pattern: "^[a-z][a-z0-9.-]*$", maxLength: 80 },
              },
            },
            {
              type: "object",
              additionalProperties: false,
              required: ["kind"],
              properties: { kind: { const: "pause" } },
            },
          ],
        },
      },
    },
    outputSchema: {
      type: "object",
      additionalProperties: false,
      required: ["receipt", "successor"],
      properties: {
        receipt: {
          type: "object",
          additionalProperties: false,
          required: ["receiptId", "stateVersion"],
          properties: {
            receiptId: { type: "string", pattern: "^rcp_[A-Za-z0-9_-]{16,64}$" },
            stateVersion: { type: "integer", minimum: 0 },
          },
        },
        successor: {
          type: "object",
          additionalProperties: false,
          required: ["stateVersion", "communicationLocale", "requiredAction", "allowedActions"],
          properties: {
            stateVersion: { type: "integer", minimum: 0 },
            communicationLocale: { enum: ["en", "de"] },
            requiredAction: { enum: ["teachActiveGoal", "chooseOption", "offerVerifiedRecall"] },
            allowedActions: { type: "array", uniqueItems: true, items: { enum: actions } },
            currentStep: {
              type: "object",
              additionalProperties: false,
              required: ["goalId"],
              properties: {
                goalId: { type: "string", maxLength: 80 },
                title: { type: "string", maxLength: 200 },
              },
            },
            extensions: { type: "object" },
          },
        },
        mastery: { type: "integer", minimum: 0, maximum: 100 },
      },
    },
  };
}

/** A tools/list document of `n` synthetic tools. */
export function synthContract(n: number): { tools: Record<string, unknown>[] } {
  return { tools: Array.from({ length: n }, (_, i) => synthTool(i)) };
}

type Tool = Record<string, unknown>;
type Node = Record<string, unknown>;

/** The object at a `/`-separated path of a synthetic tool (every step exists by construction). */
const at = (t: Tool, path: string): Node =>
  path.split("/").reduce<Node>((node, key) => node[key] as Node, t);
const list = (t: Tool, path: string): unknown[] => {
  const parts = path.split("/");
  const last = parts.pop() as string;
  return at(t, parts.join("/"))[last] as unknown[];
};

// One mutation per kind; every 50th tool gets the next one, so the breaks spread over the whole
// document.
const mutations: [string, (t: Tool) => void][] = [
  ["input enum narrowed", (t) => list(t, "inputSchema/properties/decision/enum").pop()],
  ["new required input", (t) => list(t, "inputSchema/required").push("assessments")],
  [
    "output enum widened",
    (t) =>
      list(t, "outputSchema/properties/successor/properties/communicationLocale/enum").push("fr"),
  ],
  [
    "output property removed",
    (t) => {
      delete at(t, "outputSchema/properties").mastery;
    },
  ],
  [
    "description edited",
    (t) => {
      t.description = `${String(t.description)} (edited)`;
    },
  ],
  [
    "readOnly flipped",
    (t) => {
      at(t, "annotations").readOnlyHint = !at(t, "annotations").readOnlyHint;
    },
  ],
  [
    "optional input added",
    (t) => {
      at(t, "inputSchema/properties").note = { enum: ["a", "b"] };
    },
  ],
  [
    "input bound narrowed",
    (t) => {
      at(t, "inputSchema/properties/assessments").maxItems = 5;
    },
  ],
];

/** The "after" side: every 50th tool mutated, the last 10 removed, 10 new ones added. */
export function mutateContract(doc: { tools: Record<string, unknown>[] }): {
  tools: Record<string, unknown>[];
} {
  const tools = structuredClone(doc.tools) as Tool[];
  tools.forEach((t, i) => {
    if (i % 50 === 25) mutations[((i / 50) | 0) % mutations.length][1](t);
  });
  const kept = tools.slice(0, tools.length - 10);
  for (let i = 0; i < 10; i++) kept.push(synthTool(1_000_000 + i) as Tool);
  return { tools: kept };
}
