// Child process of the L5 variation matrix: writes the matrix tree under this process's umask, then
// builds the archives under this process's TZ, and prints their sha256 as JSON on stdout.
import { buildArchives } from "../../../../release/bundle/archives.js";
import { collectTree } from "../../../../contract-model/file-tree/collect-tree.js";
import { matrixContent, writeVariantTree, type TreeVariant } from "./variant-tree.js";

const [dir, variantJson] = process.argv.slice(2);
await writeVariantTree(dir, matrixContent(), JSON.parse(variantJson) as TreeVariant);
const archives = await buildArchives(await collectTree(dir));
process.stdout.write(
  `${JSON.stringify({
    ...archives.sha256,
    umask: process.umask().toString(8),
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
  })}\n`,
);
