import type { RequiredAction } from "../../generated/types.gen.js";
import { catalogs, fillPlaceholders, type Locale } from "../i18n/index.js";

/**
 * What the coach does next, per required action, in the session's locale (C3, C10), with `{title}`
 * filled in. The texts are each language's `instructions` (runtime/i18n/catalogs/).
 */
export function instructionFor(action: RequiredAction, locale: Locale, title = ""): string {
  return fillPlaceholders(catalogs[locale].instructions[action], { title });
}
