import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import Database from "better-sqlite3";
import path from "node:path";
import { generateFromSources } from "../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../generator/load.js";
import { repoRoot, type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import {
  copyProject,
  makeTemplateProject,
  removeProject,
} from "../release/support/temp-project.js";
import { runCli } from "../support/run-cli.js";
import type { Wire } from "../support/wire.js";

/** POST one JSON-RPC request to a lane path, with or without a bearer token. */
async function post(
  fx: RuntimeFixture,
  mcpPath: string,
  method: string,
  params: object,
  token?: string,
) {
  const res = await fetch(new URL(mcpPath, fx.server.mcpUrl), {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2025-11-25",
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await res.text();
  const json = text.startsWith("event:") ? /^data: (.*)$/m.exec(text)?.[1] : text;
  return {
    status: res.status,
    challenge: res.headers.get("www-authenticate") ?? "",
    body: json ? (JSON.parse(json) as Wire) : undefined,
  };
}

describe("provider lanes: one server build, one store, an endpoint per host family (§6, L14)", function () {
  this.timeout(60_000);
  let fx: RuntimeFixture;
  before(async () => {
    fx = await startFixture();
  });
  after(() => fx?.close());

  it("the openai lane is unchanged: listing and pages need no token, the Apps SDK keys are kept", async () => {
    const listed = await post(fx, "/mcp", "tools/list", {});
    assert.equal(listed.status, 200);
    const widget = (listed.body.result.tools as Wire[]).find(
      (t) => t.name === "render_skillpilot_goal_visualization",
    );
    assert.ok(widget._meta["openai/outputTemplate"]);
  });

  for (const id of ["claude", "mcp", "gemini"])
    it(`the ${id} lane authenticates at connect: initialize and tools/list without a token get 401 with the lane's own RFC 9728 metadata`, async () => {
      const lane = fx.services.auth.settings.lanes.find((l) => l.id === id)!;
      for (const method of ["initialize", "tools/list"]) {
        const refused = await post(fx, lane.mcpPath, method, {});
        assert.equal(refused.status, 401, method);
        assert.match(
          refused.challenge,
          new RegExp(`resource_metadata="${lane.resourceMetadataUrl}"`),
        );
      }
      const doc = (await (await fetch(lane.resourceMetadataUrl)).json()) as Wire;
      assert.equal(doc.resource, lane.resource);
      assert.equal(new URL(doc.resource).pathname, lane.mcpPath);
      // A token for the openai resource is not one for this lane.
      const openaiToken = await fx.token("lane-learner");
      const wrong = await post(fx, lane.mcpPath, "tools/list", {}, openaiToken);
      assert.equal(wrong.status, 401);
      assert.match(wrong.challenge, /invalid_token/);
      // With its own token the lane serves the contract, MCP Apps keys only, pages included.
      const token = await fx.token("lane-learner", { audience: lane.resource });
      const listed = await post(fx, lane.mcpPath, "tools/list", {}, token);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const tools = listed.body.result.tools as Wire[];
      assert.equal(tools.length, 10);
      for (const t of tools)
        assert.ok(!Object.keys(t._meta ?? {}).some((k) => k.startsWith("openai/")), t.name);
      const uri = tools.find((t) => t._meta?.ui?.resourceUri)._meta.ui.resourceUri;
      const page = await post(fx, lane.mcpPath, "resources/read", { uri }, token);
      const content = page.body.result.contents[0];
      assert.ok(content._meta.ui.csp);
      assert.ok(!Object.keys(content._meta).some((k) => k.startsWith("openai/")));
      // Sessions are per lane: one launched for the openai lane does not exist on this one.
      const openaiSid = await fx.newSession("lane-learner");
      const elsewhere = await post(
        fx,
        lane.mcpPath,
        "tools/call",
        { name: "get_skillpilot_learning_context", arguments: { learningSessionId: openaiSid } },
        token,
      );
      assert.match(elsewhere.body.result.content[0].text, /^SESSION_NOT_FOUND:/);
      // …and the refusal sends the learner to this lane's own start page.
      assert.match(
        elsewhere.body.result.content[0].text,
        new RegExp(`/start\\?lane=${id}\\.`),
        elsewhere.body.result.content[0].text,
      );
      // A session launched for this lane is served here, and the learner's progress is one.
      const launched = await fx.launch({ learner: "lane-learner", lane: id });
      assert.equal(launched.status, 201);
      assert.equal(launched.body.mcpUrl, lane.resource);
      const sid = String(launched.body.learningSessionId);
      const rows = await fx.db("sessions").whereIn("session_id", [openaiSid, sid]);
      assert.equal(new Set(rows.map((r) => r.learner_id)).size, 1, "one learner, two sessions");
      const call = await post(
        fx,
        lane.mcpPath,
        "tools/call",
        { name: "get_skillpilot_learning_context", arguments: { learningSessionId: sid } },
        token,
      );
      assert.equal(call.body.result.isError, undefined, JSON.stringify(call.body));
      // …and not on the openai lane's endpoint.
      const onOpenai = await post(
        fx,
        "/mcp",
        "tools/call",
        { name: "get_skillpilot_learning_context", arguments: { learningSessionId: sid } },
        openaiToken,
      );
      assert.match(onOpenai.body.result.content[0].text, /^SESSION_NOT_FOUND:/);
      // The openai lane's learners start at the start page itself.
      assert.doesNotMatch(onOpenai.body.result.content[0].text, /lane=/);
    });

  it("a launch names a lane the server serves, or none; a lane serves the primary major only", async () => {
    for (const body of [
      { learner: "lane-launch", lane: "copilot" },
      { learner: "lane-launch", lane: 7 },
      { learner: "lane-launch", lane: "claude", contractMajor: 2 },
    ]) {
      const refused = await fx.launch(body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.equal(refused.body.code, "INVALID_INPUT");
    }
    const openai = await fx.launch({ learner: "lane-launch", lane: "openai" });
    assert.equal(openai.status, 201);
    assert.equal(openai.body.mcpUrl, fx.server.mcpUrl);
    const primary = await fx.launch({ learner: "lane-launch", lane: "claude", contractMajor: 1 });
    assert.equal(primary.status, 201);
  });

  describe("provider lanes on public URLs of their own (behind a proxy)", function () {
    this.timeout(60_000);

    it("a lane published on another allowed host: that URL is its resource, its metadata is served at the lane's path", async () => {
      const fx = await startFixture({
        lanePublicUrls: { claude: "https://mcp-claude.skillpilot.com/mcp" },
        developmentTunnel: true,
      });
      try {
        const lane = fx.services.auth.settings.lanes.find((l) => l.id === "claude")!;
        assert.equal(lane.resource, "https://mcp-claude.skillpilot.com/mcp");
        assert.equal(
          lane.resourceMetadataUrl,
          "https://mcp-claude.skillpilot.com/.well-known/oauth-protected-resource/mcp",
        );
        const refused = await post(fx, "/claude/mcp", "initialize", {});
        assert.equal(refused.status, 401);
        assert.match(
          refused.challenge,
          new RegExp(`resource_metadata="${lane.resourceMetadataUrl}"`),
        );
        // The proxy maps the lane's public metadata URL onto its path here; the openai lane's
        // document keeps /mcp.
        const local = await fetch(
          new URL("/.well-known/oauth-protected-resource/claude/mcp", fx.server.mcpUrl),
        );
        assert.equal(((await local.json()) as Wire).resource, lane.resource);
        const openai = await fetch(
          new URL("/.well-known/oauth-protected-resource/mcp", fx.server.mcpUrl),
        );
        assert.equal(((await openai.json()) as Wire).resource, fx.services.auth.settings.resource);
        // Requests the proxy forwards with the lane's public Host pass the DNS-rebinding guard.
        const token = await fx.token("proxied-learner", { audience: lane.resource });
        const proxied = await fetch(new URL("/claude/mcp", fx.server.mcpUrl), {
          method: "POST",
          headers: {
            host: "mcp-claude.skillpilot.com",
            accept: "application/json, text/event-stream",
            "content-type": "application/json",
            "mcp-protocol-version": "2025-11-25",
            authorization: `Bearer ${token}`,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
        });
        assert.equal(proxied.status, 200, await proxied.clone().text());
      } finally {
        await fx.close();
      }
    });

    const refusals: [string, Record<string, string>, RegExp][] = [
      [
        "a public URL outside the lane's allowlist",
        { claude: "https://claude.attacker.example/mcp" },
        /lane claude: public URL https:\/\/claude\.attacker\.example\/mcp is outside its allowlist \(https:\/\/mcp-openai\.skillpilot\.com, https:\/\/mcp-claude\.skillpilot\.com/,
      ],
      [
        "two lanes on one resource",
        {
          claude: "https://mcp-openai.skillpilot.com/agents/mcp",
          mcp: "https://mcp-openai.skillpilot.com/agents/mcp",
        },
        /lanes claude and mcp are both published at https:\/\/mcp-openai\.skillpilot\.com\/agents\/mcp/,
      ],
      [
        "a lane on the openai lane's resource",
        { mcp: "https://mcp-openai.skillpilot.com/mcp/" },
        /lanes openai and mcp are both published at/,
      ],
      [
        "credentials in a lane's public URL (issue #32 item 6)",
        { claude: "https://bot:hunter2@mcp-claude.skillpilot.com/mcp" },
        /^(?!.*hunter2).*lane claude: public URL https:\/\/mcp-claude\.skillpilot\.com\/mcp carries credentials/,
      ],
      [
        "a bare origin as a lane's public URL (issue #32 item 6)",
        { claude: "https://mcp-claude.skillpilot.com/" },
        /lane claude: public URL https:\/\/mcp-claude\.skillpilot\.com\/ names no path/,
      ],
      [
        "a reserved path as a lane's public URL (issue #32 item 6)",
        { claude: "https://mcp-claude.skillpilot.com/start" },
        /lane claude: public URL https:\/\/mcp-claude\.skillpilot\.com\/start uses the path \/start, which this server answers itself/,
      ],
      [
        "a path below a reserved one as a lane's public URL (issue #32 item 6)",
        { mcp: "https://mcp-openai.skillpilot.com/.well-known/mcp" },
        /lane mcp: public URL .* uses the path \/\.well-known/,
      ],
      [
        "a lane schemas/lanes.json does not declare",
        { copilot: "https://mcp.skillpilot.com/mcp" },
        /names lane "copilot"/,
      ],
    ];
    for (const [what, lanePublicUrls, message] of refusals)
      it(`refuses to start with ${what}`, async () => {
        await assert.rejects(
          startFixture({ publicUrl: "https://mcp-openai.skillpilot.com", lanePublicUrls }),
          (e: Error & { code?: string }) => {
            assert.equal(e.code, "AUTH_CONFIG_INVALID");
            assert.match(e.message, message);
            assert.doesNotMatch(e.message, /\n/);
            return true;
          },
        );
      });
  });
});

describe("provider lanes: schemas/lanes.json is checked by the generator", function () {
  this.timeout(60_000);
  let template: string;
  before(async () => {
    template = await makeTemplateProject();
  });
  after(() => (template ? removeProject(template) : undefined));

  const generateWith = async (edit: (doc: Wire) => void) => {
    const root = await copyProject(template);
    try {
      const file = path.join(root, "schemas/lanes.json");
      const doc = JSON.parse(await readFile(file, "utf8")) as Wire;
      edit(doc);
      await writeFile(file, JSON.stringify(doc, null, 2));
      return await generateFromSources(await readContractSources(defaultPaths(root)));
    } finally {
      await removeProject(root);
    }
  };

  it("emits the lanes into the generated identity", async () => {
    const text = await readFile(path.join(repoRoot, "generated/identity.gen.ts"), "utf8");
    assert.match(text, /export const providerLanes = /);
    assert.match(text, /"\/claude\/mcp"/);
  });

  it("refuses a path taken twice, a missing openai lane on /mcp, an internal adapter path and an unknown authentication, writing nothing", async () => {
    const cases: [string, (doc: Wire) => void, RegExp][] = [
      [
        "a path twice",
        (d) => (d.lanes[2].mcpPath = "/claude/mcp"),
        /mcpPath \/claude\/mcp is declared twice/,
      ],
      [
        "no openai lane on /mcp",
        (d) => (d.lanes[0].mcpPath = "/openai/mcp"),
        /openai lane must be declared with mcpPath \/mcp/,
      ],
      [
        "an internal path",
        (d) => (d.lanes[1].mcpPath = "/internal/openai/v1/mcp"),
        /internal adapter path/,
      ],
      ["an unknown authentication", (d) => (d.lanes[1].authentication = "none"), /authentication/],
    ];
    for (const [what, edit, message] of cases) {
      const result = await generateWith(edit);
      assert.equal(result.files.length, 0, what);
      const found = result.diagnostics.find((d) => d.ruleId === "LANES_INVALID");
      assert.ok(found, `${what}: ${JSON.stringify(result.diagnostics)}`);
      assert.match(found.message, message, what);
      assert.equal(found.location.file, "schemas/lanes.json");
    }
  });
});

describe("skillpilot session start --lane", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-session-lane-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("mints a session for the lane named, and refuses a lane the contract does not declare", async () => {
    const dataDir = path.join(dir, "data");
    const refused = await runCli([
      "session",
      "start",
      "--learner",
      "ada",
      "--lane",
      "copilot",
      "--data-dir",
      dataDir,
    ]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /no lane "copilot"; the lanes are openai, claude, mcp, gemini/);
    assert.deepEqual(await readdir(dir), [], "nothing created");
    const minted = await runCli([
      "session",
      "start",
      "--learner",
      "ada",
      "--lane",
      "claude",
      "--data-dir",
      dataDir,
    ]);
    assert.equal(minted.code, 0, minted.stderr);
    const sid = minted.stdout.trim();
    const db = new Database(path.join(dataDir, "skillpilot.sqlite"), { readonly: true });
    try {
      assert.deepEqual(db.prepare("SELECT lane FROM sessions WHERE session_id = ?").get(sid), {
        lane: "claude",
      });
    } finally {
      db.close();
    }
  });
});
