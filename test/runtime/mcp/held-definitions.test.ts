import assert from "node:assert/strict";
import type { CallContext } from "../../../runtime/domain/call-context.js";
import { heldAdapterOf, serveHeldDefinition } from "../../../runtime/mcp/held-definitions.js";
import { AdapterMappingError, type ServedTool } from "../../../runtime/mcp/served-contract.js";
import { createAjv } from "../../../json-schema/ajv.js";

const ajv = createAjv({ strict: false });
const closed = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  additionalProperties: false,
  properties,
  required,
});
/** Today's tool: `level: "low" | "high"` in, `{ level, score }` out. */
const nowIn = closed({ level: { enum: ["low", "high"] } }, ["level"]);
/** The held definition: `level: 1 | 2` in, `{ level }` out (no score). */
const held = {
  name: "rate",
  inputSchema: closed({ level: { enum: [1, 2] } }, ["level"]),
  outputSchema: closed({ level: { enum: ["low", "high"] } }, ["level"]),
};
const ran: unknown[] = [];
const current: ServedTool = {
  name: "rate",
  kind: "read",
  scopes: [],
  validateInput: ajv.compile(nowIn),
  outputSchema: {},
  run: () => assert.fail("the held definition runs through runAs"),
  async runAs(input, _ctx, finish) {
    ran.push(input);
    const output = await finish({ ...(input as object), score: 3 });
    return { output, facts: {} };
  },
};
const ctx = {} as CallContext;

describe("runtime/mcp: a held definition of a tool changed under its own name", () => {
  it("validates against the held input, maps both ways and checks the held output", async () => {
    const served = serveHeldDefinition(current, held, {
      input: (old: { level: number }) => ({ level: old.level === 1 ? "low" : "high" }),
      output: ({ score: _s, ...rest }: { score: number }) => rest,
    });
    assert.equal(served.tool.validateInput({ level: 2 }), true);
    assert.equal(served.tool.validateInput({ level: "high" }), false, "today's shape is not held");
    assert.equal(served.tool.runAs, undefined);
    const { output } = await served.tool.run({ level: 2 }, ctx);
    assert.deepEqual(ran.at(-1), { level: "high" });
    assert.deepEqual(output, { level: "high" });
    assert.equal(served.accepts({ level: 7 }), true, "with an input adapter every call is taken");
  });

  it("refuses a mapping outside either schema as the adapter's fault", async () => {
    const badIn = serveHeldDefinition(current, held, { input: () => ({ level: "mid" }) });
    await assert.rejects(badIn.tool.run({ level: 1 }, ctx), (e: AdapterMappingError) => {
      assert.equal(e.side, "input");
      return e instanceof AdapterMappingError;
    });
    const badOut = serveHeldDefinition(current, held, {
      input: () => ({ level: "low" }),
      output: (now: unknown) => now,
    });
    await assert.rejects(badOut.tool.run({ level: 1 }, ctx), (e: AdapterMappingError) => {
      assert.equal(e.side, "output");
      return e instanceof AdapterMappingError;
    });
  });

  it("without an adapter takes a call only where today's input takes it too", () => {
    const wider = {
      ...held,
      inputSchema: closed({ level: { enum: ["low", "high"] }, note: { type: "string" } }, [
        "level",
      ]),
    };
    const served = serveHeldDefinition(current, wider, undefined);
    assert.equal(served.accepts({ level: "low" }), true);
    assert.equal(served.accepts({ level: "low", note: "x" }), false);
    assert.equal(served.accepts({ level: 5 }), true, "the held input refuses it: invalid input");
  });

  it("finds an adapter by any release holding the definition, and none for another tool", () => {
    const adapter = { input: (x: never) => x };
    const adapters = { rate: { "1.2.0": adapter } };
    assert.equal(heldAdapterOf(adapters, "rate", ["1.0.0", "1.2.0"]), adapter);
    assert.equal(heldAdapterOf(adapters, "rate", ["1.0.0"]), undefined);
    assert.equal(heldAdapterOf(adapters, "other", ["1.2.0"]), undefined);
    assert.equal(heldAdapterOf(adapters, "__proto__", ["1.2.0"]), undefined);
    assert.equal(heldAdapterOf(undefined, "rate", ["1.2.0"]), undefined);
  });
});
