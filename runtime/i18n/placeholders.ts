const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * Fill a text's `{name}` placeholders in one pass: a value is inserted as it is (never read as a
 * replacement pattern, never searched for placeholders again); a placeholder without a value stays.
 */
export function fillPlaceholders(
  text: string,
  values: Readonly<Record<string, string | number>>,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** The placeholder names a text uses, sorted and each once. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();
}
