import type { ContractModel } from "../model.js";
import { generatedHeader, literal, type EmittedFile } from "./emitted-file.js";

/**
 * The plugin identity and version layers (L1, L2) as a typed constant, so the runtime knows who it
 * is without reading `schemas/` at boot.
 */
export function emitIdentity(model: ContractModel): EmittedFile {
  const { $schema: _schema, $id: _id, ...plugin } = model.plugin;
  const contents = `${generatedHeader(model)}
/** The plugin identity and its version layers (L1, L2), from schemas/plugin.json. */
export const pluginIdentity = ${literal(plugin)} as const;

/** The identity's keys and value types. */
export type PluginIdentity = typeof pluginIdentity;

/** The provider lanes the server serves, from schemas/lanes.json (the openai lane alone without it). */
export const providerLanes = ${literal(model.lanes)} as const;

/** One provider lane. */
export type ProviderLane = (typeof providerLanes)[number];
`;
  return { path: "generated/identity.gen.ts", contents };
}
