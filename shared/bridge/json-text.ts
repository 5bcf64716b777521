/**
 * A JSON text of a known type, as main sends a large answer it writes from stored texts without
 * parsing them (a page of 5,000 asset views: main parsed each stored document and the host wrote it
 * out again, two thirds of the page's cost; the page parses the one text instead). The brand keeps
 * the type: only `jsonText` makes one, only `parseJsonText` reads one.
 */
declare const jsonOf: unique symbol;

export type JsonText<T> = string & { readonly [jsonOf]: T };

/** Marks `text` as the JSON of a `T`: the caller answers for it (main, writing it from its own file). */
export function jsonText<T>(text: string): JsonText<T> {
  return text as JsonText<T>;
}

/** The value of a JSON text main wrote; a malformed one (a damaged file) throws a SyntaxError. */
export function parseJsonText<T>(text: JsonText<T>): T {
  return JSON.parse(text) as T;
}
