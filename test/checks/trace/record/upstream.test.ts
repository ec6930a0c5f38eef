import assert from "node:assert/strict";
import { openUpstream } from "../../../../checks/trace/record/upstream.js";

/** The port a forwarded request connects to, from the refused connection's error. */
function portTried(url: string): Promise<number | undefined> {
  const upstream = openUpstream(url);
  return new Promise((resolve) => {
    const req = upstream.request({ path: "/mcp", method: "POST", headers: {} });
    req.on("error", (error: NodeJS.ErrnoException & { port?: number }) => {
      upstream.close();
      resolve(error.port);
    });
    req.end();
  });
}

describe("checks/trace/record: the upstream's scheme decides the default port", () => {
  it("an https: URL without a port connects to 443, an http: one to 80 (nothing listens there here)", async () => {
    assert.equal(await portTried("https://127.0.0.1/mcp"), 443);
    assert.equal(await portTried("http://127.0.0.1/mcp"), 80);
    assert.equal(await portTried("https://127.0.0.1:9/mcp"), 9);
  });
});
