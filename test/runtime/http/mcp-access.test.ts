import assert from "node:assert/strict";
import { anonymousParseError, classifyMcpRequest } from "../../../runtime/http/mcp-access.js";

const parsed = (text: string) => ({ text, value: JSON.parse(text) as unknown });

describe("what a request without a token may ask for at the /mcp edge", () => {
  it("passes public methods and notifications, tool calls apart, everything else protected", () => {
    assert.equal(classifyMcpRequest({ jsonrpc: "2.0", id: 1, method: "tools/list" }), "public");
    assert.equal(
      classifyMcpRequest([{ method: "ping", id: 1 }, { method: "notifications/x" }]),
      "public",
    );
    assert.equal(classifyMcpRequest({ id: 1, method: "tools/call" }), "tool-call");
    for (const body of [{ id: 1, method: "logging/setLevel" }, [], "x", null, { id: 1 }])
      assert.equal(classifyMcpRequest(body), "protected", JSON.stringify(body));
  });

  it("parses strictly: an object or array, and no own __proto__ key at any depth", () => {
    for (const text of ['"x"', "1", "null", " true"])
      assert.equal(anonymousParseError(text, JSON.parse(text)), true, text);
    const deep = `{"a":${'{"b":'.repeat(300)}{"__proto__":1}${"}".repeat(300)}}`;
    for (const text of ['{"params":{"\\u005f_proto__":{}}}', deep]) {
      const { value } = parsed(text);
      assert.equal(anonymousParseError(text, value), true, text.slice(0, 40));
    }
    for (const text of [' \n{"method":"ping"}', '[{"method":"ping"}]', '{"proto":"__proto__"}']) {
      const { value } = parsed(text);
      assert.equal(anonymousParseError(text, value), false, text);
    }
  });
});
