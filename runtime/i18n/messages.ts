import type { en } from "./catalogs/en.js";

/** An error's text for the chat model: what went wrong, and what to do next. */
export interface ErrorText {
  message: string;
  recovery: string;
}

/**
 * The shape of a language's catalog: the English catalog's, so every other language must have
 * exactly its keys (a missing or an extra text is a compile error).
 */
export type Messages = typeof en;
