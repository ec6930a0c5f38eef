import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The architecture as import rules. A top-level folder may import only the folders listed for it
 * (type-only imports included: a type is a dependency too); `*` means any. Folders not listed here
 * (test/, bench/, tools/, bin/) may import anything.
 */
export const allowedImports: Readonly<Record<string, readonly string[]>> = {
  diagnostics: [],
  "json-schema": ["diagnostics"],
  "contract-model": ["json-schema", "diagnostics"],
  evolution: ["contract-model", "json-schema", "diagnostics"],
  generated: [],
  generator: ["json-schema", "contract-model", "diagnostics"],
  checks: ["json-schema", "contract-model", "evolution", "diagnostics"],
  release: [
    "generator",
    "checks",
    "contract-model",
    "evolution",
    "json-schema",
    "diagnostics",
    "generated",
  ],
  runtime: ["generated", "contract-model", "evolution", "json-schema"],
};

/**
 * Layers inside the runtime, highest first: a folder may import lower layers only (value imports;
 * type-only imports of shared shapes are allowed, they create no load-order cycle). Files directly
 * in `runtime/` are the composition root and shared kernel and are not ranked.
 */
export const runtimeLayers: readonly (readonly string[])[] = [
  ["http"],
  ["mcp"],
  ["domain"],
  ["store", "capability", "observability", "auth"],
  // The lowest layer: the provider lanes (derived from the generated identity) and the languages
  // and texts, used by every layer above and using none of them.
  ["lanes", "i18n"],
];

/**
 * Runtime folders that may import no other runtime folder at all (type-only imports included),
 * only the shared kernel (files directly in `runtime/`) and the top-level folders `runtime/` may
 * import: `lanes` (the provider lanes, derived from the generated identity) and `i18n` (the texts).
 */
export const runtimeLeaves: readonly string[] = ["lanes", "i18n"];

/** One import that breaks a rule. */
export interface ImportViolation {
  file: string;
  imports: string;
  rule: string;
}

interface ImportEdge {
  target: string;
  typeOnly: boolean;
}

/** Relative imports of a source file (static, re-exports and dynamic), resolved to repo paths. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const edges: ImportEdge[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (!spec.startsWith(".")) return;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    edges.push({ target, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!named &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, allTypes);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) add(arg.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

const topFolder = (file: string) => (file.includes("/") ? file.split("/")[0] : "");
const runtimeRank = (file: string): number | undefined => {
  const parts = file.split("/");
  if (parts[0] !== "runtime" || parts.length < 3) return undefined;
  const i = runtimeLayers.findIndex((layer) => layer.includes(parts[1]));
  return i < 0 ? undefined : i;
};

/** Check every given source file (repository-relative posix paths) against the rules. */
export function checkImportDirection(
  files: readonly string[],
  read: (file: string) => string,
): ImportViolation[] {
  const violations: ImportViolation[] = [];
  for (const file of files) {
    const from = topFolder(file);
    const allowed = allowedImports[from];
    for (const edge of importsOf(file, read(file))) {
      const to = topFolder(edge.target);
      if (to === from && from === "runtime") {
        const own = file.split("/")[1];
        const other = edge.target.split("/").length > 2 ? edge.target.split("/")[1] : undefined;
        if (runtimeLeaves.includes(own) && other !== undefined && other !== own) {
          violations.push({
            file,
            imports: edge.target,
            rule: `runtime/${own} imports only the runtime kernel and generated/`,
          });
          continue;
        }
        const a = runtimeRank(file);
        const b = runtimeRank(edge.target);
        if (!edge.typeOnly && a !== undefined && b !== undefined && b < a)
          violations.push({
            file,
            imports: edge.target,
            rule: `runtime/${file.split("/")[1]} sits below runtime/${edge.target.split("/")[1]}`,
          });
        continue;
      }
      if (to === from || !allowed) continue;
      if (to === "" || !allowed.includes(to))
        violations.push({
          file,
          imports: edge.target,
          rule: `${from}/ may import only ${allowed.length ? allowed.map((f) => `${f}/`).join(", ") : "packages"}`,
        });
    }
  }
  return violations;
}

/** CLI: check the tracked sources of the project in the working directory. */
export async function main(): Promise<number> {
  const { execFileSync } = await import("node:child_process");
  const files = execFileSync("git", ["ls-files", "*.ts", "*.js", "*.mjs"], { encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.startsWith("test/fixtures/"));
  const violations = checkImportDirection(files, (f) => readFileSync(f, "utf8"));
  for (const v of violations) process.stderr.write(`${v.file}: imports ${v.imports} (${v.rule})\n`);
  process.stderr.write(
    violations.length
      ? `import direction: ${violations.length} violation(s)\n`
      : `import direction: ${files.length} files follow the architecture\n`,
  );
  return violations.length ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();
