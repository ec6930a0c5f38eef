import { de } from "./catalogs/de.js";
import { en } from "./catalogs/en.js";
import type { Locale } from "./locale.js";
import type { Messages } from "./messages.js";

/** Every language's catalog, one per `Locale` (a language without one is a compile error). */
export const catalogs: { readonly [L in Locale]: Messages } = { en, de };

/** Every language the server speaks, the reference language (English) first. */
export const locales = Object.keys(catalogs) as readonly Locale[];

/** Whether a value names a language the server speaks. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && Object.hasOwn(catalogs, value);
}
