import type { ContractModel } from "../model.js";
import { emitDescriptors } from "./descriptors.emitter.js";
import type { EmittedFile } from "./emitted-file.js";
import { emitHandlers } from "./handlers.emitter.js";
import { emitIdentity } from "./identity.emitter.js";
import { emitManifest } from "./manifest.emitter.js";
import { emitSnapshot } from "./snapshot.emitter.js";
import { emitTypes } from "./types.emitter.js";
import { emitValidators } from "./validators.emitter.js";

/** Run every emitter over the model; files sorted by path, the manifest last. */
export async function emitAll(model: ContractModel): Promise<EmittedFile[]> {
  const files = [
    await emitTypes(model),
    ...emitValidators(model),
    emitDescriptors(model),
    emitHandlers(model),
    emitIdentity(model),
    emitSnapshot(model),
  ];
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return [...files, emitManifest(model, files)];
}
