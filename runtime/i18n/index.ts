// The server's languages and texts: one home for the locale type and every text it answers with.
export { catalogs, isLocale, locales } from "./languages.js";
export { defaultLocale, type Locale } from "./locale.js";
export type { ErrorText } from "./error-text.js";
export type { Messages } from "./messages.js";
export { fillPlaceholders, placeholdersOf } from "./placeholders.js";
