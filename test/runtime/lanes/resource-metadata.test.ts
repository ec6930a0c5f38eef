import assert from "node:assert/strict";
import {
  issuerProblem,
  metadataRoutes,
  protectedResourceMetadata,
  resourceMetadataUrlOf,
} from "../../../runtime/lanes/resource-metadata.js";

const source = {
  resource: "https://Coach.example.com/mcp",
  resourceMetadataUrl: "https://coach.example.com/.well-known/oauth-protected-resource/mcp",
  issuer: "https://issuer.example",
  scopesSupported: ["coach.read", "coach.write"],
  lanes: [
    {
      mcpPath: "/mcp",
      resource: "https://Coach.example.com/mcp",
      resourceMetadataUrl: "https://coach.example.com/.well-known/oauth-protected-resource/mcp",
    },
    {
      mcpPath: "/claude/mcp",
      resource: "https://claude.example.com/connector",
      resourceMetadataUrl:
        "https://claude.example.com/.well-known/oauth-protected-resource/connector",
    },
  ],
};

describe("protected resource metadata of each lane (RFC 9728, on the SDK's builder)", () => {
  it("inserts the well-known path ahead of the resource's path", () => {
    assert.equal(
      resourceMetadataUrlOf("https://x.example/claude/mcp"),
      "https://x.example/.well-known/oauth-protected-resource/claude/mcp",
    );
  });

  it("names the resource exactly as the tokens' audience must, header bearers only, no jwks_uri", () => {
    assert.deepEqual(protectedResourceMetadata(source, source.resource, "Coach"), {
      resource: "https://Coach.example.com/mcp",
      authorization_servers: ["https://issuer.example"],
      scopes_supported: ["coach.read", "coach.write"],
      bearer_methods_supported: ["header"],
      resource_name: "Coach",
    });
  });

  it("serves the primary document at its path and the root, each other lane at its local and public paths", () => {
    const routes = metadataRoutes(source, "Coach");
    assert.deepEqual(
      routes.map((r) => [r.path, r.document.resource]),
      [
        ["/.well-known/oauth-protected-resource/mcp", source.resource],
        ["/.well-known/oauth-protected-resource", source.resource],
        [
          "/.well-known/oauth-protected-resource/claude/mcp",
          "https://claude.example.com/connector",
        ],
        ["/.well-known/oauth-protected-resource/connector", "https://claude.example.com/connector"],
      ],
    );
  });

  it("refuses an issuer with a query or fragment, accepts a plain http one (TLS is the settings' rule)", () => {
    assert.equal(issuerProblem("http://issuer.test"), undefined);
    assert.match(issuerProblem("https://issuer.example/?tenant=a") ?? "", /query/);
    assert.match(issuerProblem("https://issuer.example/#x") ?? "", /fragment/);
  });
});
