// The runtime's canonical hashing is the project's one implementation (contract/canonical.ts).
export { canonicalJsonCompact, canonicalSha256 } from "../contract/canonical.js";
