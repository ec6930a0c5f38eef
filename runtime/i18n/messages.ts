import type { en } from "./catalogs/en.js";

/**
 * The shape of a language's catalog: the English catalog's, so every other language must have
 * exactly its keys (a missing or an extra text is a compile error).
 */
export type Messages = typeof en;
