/**
 * Message templates of the rule table. A template is plain text with named placeholders:
 * `{name}` renders a parameter with `String()`, `{name:json}` with `JSON.stringify()`. Braces
 * around anything that is not an identifier (`{"tools":[…]}`) are plain text.
 */

/** A value a plain `{name}` placeholder renders with `String()`. */
export type PlainValue = string | number | boolean;

/** A rule's message: one template, or named variants when the rule words several situations. */
export type MessageSpec = string | Readonly<Record<string, string>>;

type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
// A letter is a character whose upper and lower case differ.
type IsIdentChar<C extends string> = C extends Digit | "_"
  ? true
  : Uppercase<C> extends Lowercase<C>
    ? false
    : true;
type IsIdent<S extends string> = S extends `${infer C}${infer Rest}`
  ? IsIdentChar<C> extends true
    ? Rest extends ""
      ? true
      : IsIdent<Rest>
    : false
  : false;

/** The placeholders of one template as an object type (an intersection, one member each). */
type Fields<T extends string> = T extends `${string}{${infer Open}`
  ? Open extends `${infer Body}}${infer After}`
    ? Body extends `${infer Name}:json`
      ? IsIdent<Name> extends true
        ? { [K in Name]: unknown } & Fields<After>
        : Fields<Open>
      : IsIdent<Body> extends true
        ? { [K in Body]: PlainValue } & Fields<After>
        : Fields<Open>
    : unknown
  : unknown;

type Simplify<T> = { [K in keyof T]: T[K] };

/**
 * The parameters a template needs, derived from its literal type: `"{tool}: {n:json}"` needs
 * `{ tool: PlainValue; n: unknown }`. A template typed only as `string` takes any record.
 */
export type TemplateParams<T extends string> = string extends T
  ? Readonly<Record<string, unknown>>
  : Simplify<Fields<T>>;

/**
 * The parameters of a message: the template's own, or for variants one object per variant tagged
 * with `variant` (a discriminated union).
 */
export type ParamsOf<M extends MessageSpec> = M extends string
  ? TemplateParams<M>
  : {
      [V in keyof M & string]: Simplify<{ variant: V } & TemplateParams<M[V] & string>>;
    }[keyof M & string];

const placeholder = /\{([\p{L}_][\p{L}\p{N}_]*)(?::(json))?\}/gu;

/** Names of the placeholders in a template, in order of appearance (repeats included). */
export function placeholders(template: string): string[] {
  return [...template.matchAll(placeholder)].map((m) => m[1]);
}

/**
 * Fill a template. A placeholder whose parameter is missing stays as written (`{tool}`), so a
 * wiring mistake shows in the message instead of failing the command that reports it.
 */
export function renderTemplate(
  template: string,
  params: Readonly<Record<string, unknown>>,
): string {
  return template.replace(placeholder, (whole, name: string, json?: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    return json ? String(JSON.stringify(value)) : String(value);
  });
}
