import { toolDescriptors } from "../../../generated/tools.gen.js";
import { strange } from "../../e2e/support/tool-arguments.js";
import {
  type ArgumentSource,
  authChoices,
  type IngressInput,
  type IngressPools,
  mcpName,
  modernMeta,
  protocolVersions,
  rpcMethods,
} from "./ingress-input.js";
import type { Rng } from "./rng.js";

/** What a mutation may draw on besides the input: real values and the other kept inputs. */
export interface MutationSources {
  pools: IngressPools;
  args: ArgumentSource;
  /** Another input to splice from (crossover), if any is kept. */
  other(): IngressInput | undefined;
}

type Mutator = (input: IngressInput, rng: Rng, sources: MutationSources) => IngressInput;

type Json = unknown;
type Path = (string | number)[];

/** Paths of the nodes of a JSON value, breadth first, at most `limit`. */
function nodePaths(root: Json, limit = 200): Path[] {
  const out: Path[] = [];
  const queue: { value: Json; path: Path }[] = [{ value: root, path: [] }];
  while (queue.length > 0 && out.length < limit) {
    const { value, path } = queue.shift() as { value: Json; path: Path };
    out.push(path);
    if (typeof value === "object" && value !== null)
      for (const [k, v] of Object.entries(value))
        queue.push({ value: v, path: [...path, Array.isArray(value) ? Number(k) : k] });
  }
  return out;
}

/** An own property, even `__proto__` (an assignment would set the prototype instead). */
function setOwn(target: object, key: string | number, value: Json): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** `root` with the node at `path` replaced by `f(node)` (undefined: removed). */
function update(root: Json, path: Path, f: (node: Json) => Json): Json {
  if (path.length === 0) return f(root);
  const [head, ...rest] = path;
  if (typeof root !== "object" || root === null) return root;
  const copy: Json = Array.isArray(root) ? [...root] : { ...(root as object) };
  const next = update((root as Record<string, Json>)[head], rest, f);
  if (next === undefined) {
    if (Array.isArray(copy)) copy.splice(Number(head), 1);
    else delete (copy as Record<string, Json>)[head];
  } else setOwn(copy as object, head, next);
  return copy;
}

const get = (root: Json, path: Path): Json =>
  path.reduce<Json>((node, k) => (node as Record<string, Json> | null)?.[k], root);

/** Apply `f` to the parsed body; a body that does not parse is left as it is. */
const onJson =
  (f: (body: Json, rng: Rng, sources: MutationSources) => Json): Mutator =>
  (input, rng, sources) => {
    let body: Json;
    try {
      body = JSON.parse(input.body);
    } catch {
      return input;
    }
    return { ...input, body: JSON.stringify(f(body, rng, sources)) ?? "" };
  };

/** Keys worth adding: JSON-RPC and MCP names, prototype names, an empty key. */
const keys = [
  "__proto__",
  "constructor",
  "prototype",
  "id",
  "jsonrpc",
  "method",
  "params",
  "result",
  "error",
  "_meta",
  "name",
  "arguments",
  "uri",
  "cursor",
  "task",
  "progressToken",
  "io.modelcontextprotocol/protocolVersion",
  "",
];

/** A value for a node: strange, a real value of any pool, or a fresh value of a node elsewhere. */
function someValue(rng: Rng, sources: MutationSources, body: Json): Json {
  const pools = Object.values(sources.pools.args).filter((p) => p.length > 0);
  switch (rng.int(4)) {
    case 0:
      return rng.pick(rng.pick(pools));
    case 1:
      return get(body, rng.pick(nodePaths(body)));
    default:
      return rng.draw(strange);
  }
}

const mutators: readonly Mutator[] = [
  // A node replaced, removed, given a key, wrapped, nested or turned into a string.
  onJson((body, rng, sources) => {
    const path = rng.pick(nodePaths(body));
    const op = rng.int(7);
    return update(body, path, (node) => {
      if (op === 0) return someValue(rng, sources, body);
      if (op === 1) return path.length > 0 ? undefined : node;
      if (op === 2 && typeof node === "object" && node !== null && !Array.isArray(node)) {
        const copy = { ...node };
        setOwn(copy, rng.pick(keys), someValue(rng, sources, body));
        return copy;
      }
      if (op === 3) return [node];
      if (op === 4) return JSON.stringify(node) ?? null;
      if (op === 5) {
        const depth = rng.pick([8, 63, 64, 65, 200]);
        let deep: Json = node;
        for (let i = 0; i < depth; i++) deep = rng.chance(0.5) ? [deep] : { a: deep };
        return deep;
      }
      return typeof node === "number" ? rng.pick([-1, 0, 2 ** 31, 1e21, 0.5, -0]) : null;
    });
  }),
  // Fresh arguments for the call, valid or mutated, or those of another tool.
  onJson((body, rng, sources) => {
    const message = (Array.isArray(body) ? body[0] : body) as Record<string, Json> | null;
    const params = message?.params as Record<string, Json> | undefined;
    if (typeof params !== "object" || params === null) return body;
    const tool =
      rng.chance(0.8) && typeof params.name === "string"
        ? params.name
        : rng.pick(toolDescriptors).name;
    const next = {
      ...message,
      params: { ...params, name: tool, arguments: sources.args.draw(rng, tool, rng.chance(0.5)) },
    };
    return Array.isArray(body) ? [next, ...body.slice(1)] : next;
  }),
  // Another method, id or JSON-RPC version.
  onJson((body, rng) => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
    const copy = { ...body } as Record<string, Json>;
    const op = rng.int(3);
    if (op === 0) copy.method = rng.pick(rpcMethods);
    else if (op === 1) copy.id = rng.pick([null, "", "x", 0, -1, 1.5, 2 ** 53, [], {}, true]);
    else copy.jsonrpc = rng.pick(["1.0", "2", 2, null]);
    return copy;
  }),
  // Batches: the message doubled (same id), joined with another input's, or an empty batch.
  (input, rng, sources) =>
    onJson((body) => {
      let other: Json;
      try {
        other = JSON.parse(sources.other()?.body ?? "null");
      } catch {
        other = null;
      }
      const op = rng.int(3);
      if (op === 0) return [body, body];
      if (op === 1) return [body, other].flat();
      return rng.chance(0.5) ? [] : [body];
    })(input, rng, sources),
  // A 2026-07-28 message made 2025 or the other way round, the `_meta` revision changed.
  onJson((body, rng) => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
    const message = body as Record<string, Json>;
    const params = (typeof message.params === "object" && message.params) || {};
    const { _meta, ...rest } = params as Record<string, Json>;
    if (_meta === undefined) return { ...message, params: { ...rest, _meta: modernMeta() } };
    if (rng.chance(0.5)) return { ...message, params: rest };
    return {
      ...message,
      params: {
        ...rest,
        _meta: {
          ...(_meta as object),
          "io.modelcontextprotocol/protocolVersion": rng.pick(protocolVersions),
        },
      },
    };
  }),
  // Headers: content type, accept, protocol revision, Mcp-Method / Mcp-Name, an odd one.
  (input, rng) => {
    const headers = { ...input.headers };
    const op = rng.int(6);
    if (op === 0)
      headers["content-type"] = rng.pick([
        "text/plain",
        "application/json; charset=utf-16",
        "application/JSON",
        "application/json-patch+json",
        "multipart/form-data; boundary=x",
        "",
      ]);
    else if (op === 1)
      headers.accept = rng.pick(["application/json", "text/event-stream", "*/*", "text/html", ""]);
    else if (op === 2) headers["mcp-protocol-version"] = rng.pick([...protocolVersions, "", "x"]);
    else if (op === 3) {
      let message: { method?: unknown; params?: unknown } = {};
      try {
        message = JSON.parse(input.body) ?? {};
      } catch {}
      headers["mcp-method"] = rng.chance(0.5) ? rng.pick(rpcMethods) : String(message.method);
      const name = mcpName(message);
      headers["mcp-name"] =
        rng.chance(0.5) || name === undefined ? rng.pick(toolDescriptors).name : name;
    } else if (op === 4) delete headers[rng.pick(Object.keys(headers))];
    else
      headers[rng.pick(["origin", "x-forwarded-for", "mcp-session-id", "last-event-id"])] =
        rng.pick(["http://evil.example", "1", "x".repeat(300)]);
    return { ...input, headers };
  },
  // Credentials.
  (input, rng) => ({ ...input, auth: rng.pick(authChoices) }),
  // The HTTP method or the endpoint.
  (input, rng, sources) =>
    rng.chance(0.5)
      ? { ...input, method: rng.pick(["GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD", "POST"]) }
      : { ...input, path: rng.pick([...sources.pools.paths, "/mcp", "/mcp/", "/mcp?x=1"]) },
  // Bytes: insert a token, delete or duplicate a span, flip a character, truncate, splice.
  (input, rng, sources) => {
    const text = input.body;
    const at = rng.int(text.length + 1);
    const span = 1 + rng.int(Math.min(32, Math.max(1, text.length - at)));
    const op = rng.int(6);
    const tokens = [
      "{",
      "}",
      "[",
      "]",
      '"',
      ",",
      ":",
      "\\",
      "\\u0000",
      "\u0000",
      "\ud800",
      "\ufeff",
      "null",
      "1e999",
      "-",
      " ",
      "\n",
      "\u2028",
    ];
    let body: string;
    if (op === 0) body = text.slice(0, at) + rng.pick(tokens) + text.slice(at);
    else if (op === 1) body = text.slice(0, at) + text.slice(at + span);
    else if (op === 2)
      body = text.slice(0, at + span) + text.slice(at, at + span) + text.slice(at + span);
    else if (op === 3)
      body = text.slice(0, at) + String.fromCharCode(rng.int(0x80)) + text.slice(at + 1);
    else if (op === 4) body = text.slice(0, at);
    else {
      const other = sources.other()?.body ?? "";
      body = text.slice(0, at) + other.slice(rng.int(other.length + 1));
    }
    return { ...input, body };
  },
];

/**
 * How often each mutator (in the order above) is picked: the ones that keep a request one the
 * server reads far (new arguments, one node changed) more often than those that end it early.
 */
const weights = [3, 4, 1, 1, 1, 1, 1, 1, 2];
const totalWeight = weights.reduce((a, b) => a + b, 0);

function pickMutator(rng: Rng): Mutator {
  let at = rng.int(totalWeight);
  for (let i = 0; i < mutators.length; i++) {
    at -= weights[i];
    if (at < 0) return mutators[i];
  }
  return mutators[mutators.length - 1];
}

/** Rare: a body over the edge's limit or one of odd sizes. */
const size: Mutator = (input, rng) => ({
  ...input,
  body: rng.chance(0.5) ? input.body.padEnd(4 * 1024 * 1024 + 16, " ") : rng.chance(0.5) ? "" : " ",
});

/**
 * Mutations of `input` stacked (havoc): one most of the time, up to four (every mutation moves
 * a request further from what the server accepts, and the deep code needs accepted requests).
 */
export function mutate(input: IngressInput, rng: Rng, sources: MutationSources): IngressInput {
  let next = input;
  const count = rng.chance(0.6) ? 1 : rng.chance(0.6) ? 2 : 3 + rng.int(2);
  for (let i = 0; i < count; i++) {
    const mutator = rng.chance(0.01) ? size : pickMutator(rng);
    next = mutator(next, rng, sources);
  }
  return next;
}
