/**
 * A page template: HTML with mustache-style slots, parsed once and filled per request. Only data
 * goes in: `{{name}}` inserts text (HTML-escaped), `{{{name}}}` inserts markup-safe data as it is
 * (reserved for JSON already made safe for a `<script>` element), `{{#name}}…{{/name}}` keeps its
 * part when the value is truthy (once, or once per item of a list, the item's fields in scope) and
 * `{{^name}}…{{/name}}` when it is not. A name may be a path (`t.title`). Inserted values are never
 * searched for slots again.
 */

/** A value a slot can take. */
export type TemplateValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | TemplateScope
  | readonly TemplateScope[];

/** The names a template is filled from. */
export interface TemplateScope {
  readonly [name: string]: TemplateValue;
}

type Node =
  | { kind: "text"; text: string }
  | { kind: "value"; name: string; raw: boolean }
  | { kind: "section"; name: string; inverted: boolean; children: Node[] };

/** A parsed template. */
export interface PageTemplate {
  render(scope: TemplateScope): string;
}

/** Thrown for a template that does not parse, or a slot without a value. */
export class PageTemplateError extends Error {
  override name = "PageTemplateError";
}

const SLOT = /\{\{\{\s*([\w.]+)\s*\}\}\}|\{\{\s*([#^/]?)\s*([\w.]+)\s*\}\}/g;

/** Parse a template once; `source` names it in error messages. */
export function parsePageTemplate(text: string, source: string): PageTemplate {
  const root: Node[] = [];
  const open: { name: string; children: Node[] }[] = [{ name: "", children: root }];
  let at = 0;
  for (const m of text.matchAll(SLOT)) {
    const children = open[open.length - 1].children;
    if (m.index > at) children.push({ kind: "text", text: text.slice(at, m.index) });
    at = m.index + m[0].length;
    if (m[1]) children.push({ kind: "value", name: m[1], raw: true });
    else if (m[2] === "/") {
      const closed = open.pop();
      if (closed?.name !== m[3] || open.length === 0)
        throw new PageTemplateError(`${source}: {{/${m[3]}}} closes no open {{#${m[3]}}}`);
    } else if (m[2]) {
      const section: Node = { kind: "section", name: m[3], inverted: m[2] === "^", children: [] };
      children.push(section);
      open.push({ name: m[3], children: section.children });
    } else children.push({ kind: "value", name: m[3], raw: false });
  }
  if (open.length > 1)
    throw new PageTemplateError(`${source}: {{#${open[open.length - 1].name}}} is never closed`);
  if (at < text.length) root.push({ kind: "text", text: text.slice(at) });
  return { render: (scope) => renderNodes(root, [scope], source) };
}

/** Text for HTML element content and quoted attribute values alike. */
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function lookup(name: string, scopes: readonly TemplateScope[]): TemplateValue {
  const [first, ...rest] = name.split(".");
  const scope = [...scopes].reverse().find((s) => Object.hasOwn(s, first));
  let value: TemplateValue = scope?.[first];
  for (const key of rest)
    value =
      value && typeof value === "object" && !Array.isArray(value) && Object.hasOwn(value, key)
        ? (value as TemplateScope)[key]
        : undefined;
  return value;
}

function renderNodes(nodes: readonly Node[], scopes: readonly TemplateScope[], source: string) {
  let out = "";
  for (const node of nodes) {
    if (node.kind === "text") out += node.text;
    else if (node.kind === "value") {
      const value = lookup(node.name, scopes);
      if (typeof value !== "string" && typeof value !== "number")
        throw new PageTemplateError(`${source}: {{${node.name}}} has no text value`);
      out += node.raw ? String(value) : escapeHtml(String(value));
    } else {
      const value = lookup(node.name, scopes);
      const items = Array.isArray(value) ? (value as readonly TemplateScope[]) : undefined;
      const truthy = items ? items.length > 0 : Boolean(value);
      if (node.inverted) out += truthy ? "" : renderNodes(node.children, scopes, source);
      else if (items)
        for (const item of items) out += renderNodes(node.children, [...scopes, item], source);
      else if (truthy)
        out += renderNodes(
          node.children,
          typeof value === "object" ? [...scopes, value as TemplateScope] : scopes,
          source,
        );
    }
  }
  return out;
}
