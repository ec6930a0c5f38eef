import { readFile } from "node:fs/promises";
import path from "node:path";
import { Router } from "@koa/router";
import { projectLayout } from "../../contract-model/project/project-layout.js";

/** Where the signed statement of approved definitions and its public key are served. */
export const statementPaths = {
  jws: "/.well-known/skillpilot/approved-definitions.jws",
  jwk: "/.well-known/skillpilot/approved-definitions.jwk.json",
} as const;

/** The statement's compact JWS and its public key (JWK) as the repository holds them. */
export interface ServedStatement {
  jws: string;
  jwk: string;
}

/**
 * The project's signed statement (`contracts/approved-definitions.jws`) and public key, read once
 * at start; undefined when the project has none (or only one of the two files). The server only
 * serves them: verifying is the reader's part, with a key it pinned itself.
 */
export async function readServedStatement(root: string): Promise<ServedStatement | undefined> {
  const read = (rel: string) => readFile(path.join(root, rel), "utf8").catch(() => undefined);
  const [jws, jwk] = await Promise.all([
    read(projectLayout.approvedStatementJws),
    read(projectLayout.approvedStatementKey),
  ]);
  return jws !== undefined && jwk !== undefined ? { jws: jws.trim(), jwk } : undefined;
}

/**
 * The statement's two public documents, byte for byte as the repository holds them (the JWS
 * without its trailing newline): `application/jose` (RFC 7515's compact serialization) and
 * `application/jwk+json`. Without a statement both answer 404.
 */
export function statementRoutes(statement: ServedStatement | undefined): Router {
  const router = new Router();
  const serve =
    (type: string, body: string | undefined): Parameters<Router["get"]>[1] =>
    (ctx) => {
      ctx.set("Access-Control-Allow-Origin", "*");
      if (body === undefined) {
        ctx.status = 404;
        ctx.type = "text/plain";
        ctx.body = "this server holds no signed statement of approved definitions\n";
        return;
      }
      ctx.set("Cache-Control", "public, max-age=300");
      ctx.type = type;
      ctx.body = body;
    };
  router.get(statementPaths.jws, serve("application/jose", statement?.jws));
  router.get(statementPaths.jwk, serve("application/jwk+json", statement?.jwk));
  return router;
}
