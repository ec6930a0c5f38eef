import type {
  ApprovedDefinition,
  ApprovedDefinitions,
  DefinitionHolder,
} from "./approved-definitions.js";

/** A holder as people read it: `1.1.2`, `1.1.2 (imported)`, `draft 1.1.4 (frozen)`. */
export function holderLabel(h: DefinitionHolder): string {
  if (h.kind === "frozen-draft") return `draft ${h.version} (frozen)`;
  return h.imported ? `${h.version} (imported)` : h.version;
}

/**
 * The live approved definitions as JSON (what `contract show --json` adds): per tool its distinct
 * definitions with hash, contract major, holders and descriptor; the live holders; the retirements.
 */
export function approvedDefinitionsJson(defs: ApprovedDefinitions): Record<string, unknown> {
  const holder = (h: DefinitionHolder) => {
    const { snapshotFile: _file, ...rest } = h;
    return rest;
  };
  return {
    tools: Object.fromEntries(
      [...defs.tools].map(([name, list]) => [
        name,
        list.map((d) => ({
          sha256: d.sha256,
          contractMajor: d.contractMajor,
          holders: d.holders.map(holder),
          descriptor: d.descriptor,
        })),
      ]),
    ),
    holders: defs.holders.map((h) => ({ ...holder(h), snapshotFile: h.snapshotFile })),
    retired: defs.retired,
    ...(defs.problems.length ? { problems: defs.problems } : {}),
  };
}

/**
 * The text section of `contract show`: per tool (the current contract's tools and every tool a
 * live definition names), each distinct definition by hash with who holds it.
 */
export function approvedDefinitionsSummary(
  defs: ApprovedDefinitions,
  currentTools: readonly { name: string; sha256: string }[],
): string {
  const names = [...new Set([...currentTools.map((t) => t.name), ...defs.tools.keys()])].sort();
  const current = new Map(currentTools.map((t) => [t.name, t.sha256]));
  const live = defs.holders.map(holderLabel).join(", ");
  const lines = [
    "",
    `Live approved definitions (${live || "none: nothing published or under review"}):`,
  ];
  const width = Math.max(0, ...names.map((n) => n.length));
  for (const name of names) {
    const list: ApprovedDefinition[] = defs.tools.get(name) ?? [];
    const now = current.get(name);
    if (list.length === 0) {
      lines.push(`  ${name.padEnd(width)}  none yet (new in the current contract)`);
      continue;
    }
    list.forEach((d, i) => {
      const marks = [
        d.sha256 === now ? "= current" : now ? "≠ current" : "not in the current contract",
      ];
      lines.push(
        `  ${(i === 0 ? name : "").padEnd(width)}  sha256 ${d.sha256.slice(0, 12)}…  ` +
          `major ${d.contractMajor}  ${d.holders.map(holderLabel).join(", ")}  (${marks.join(", ")})`,
      );
    });
  }
  for (const r of defs.retired)
    lines.push(`  retired: ${r.version} on ${r.retiredAt}: ${r.reason}`);
  for (const p of defs.problems) lines.push(`  not read: ${p}`);
  return `${lines.join("\n")}\n`;
}
