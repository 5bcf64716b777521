/**
 * A JSON text of a known type, as main sends a large answer it writes from stored texts without
 * parsing them (a page of 5,000 asset views: main parsed each stored document and the host wrote it
 * out again, two thirds of the page's cost; the page parses the one text instead). A wrapper, not a
 * branded string, so the browser host can tell it at run time and splice the text into its message
 * raw (as a string of it, every quote of ~10 MB was escaped by main and unescaped by the page before
 * the page parsed it again). Electron's IPC copies it as `{ json }` (structured clone drops the
 * class). Only `jsonText` makes one, only `parseJsonText` reads one. Its value is an array, so what
 * arrives (the wrapper's copy, or the value itself from the browser host) is told apart for sure.
 */
export class JsonText<T extends readonly unknown[]> {
  /** Never set: keeps `T` in the type. */
  declare readonly of?: T;

  constructor(readonly json: string) {}
}

/** Marks `text` as the JSON of a `T`: the caller answers for it (main, writing it from its own file). */
export function jsonText<T extends readonly unknown[]>(text: string): JsonText<T> {
  return new JsonText<T>(text);
}

/**
 * The value of a JSON text main wrote, as it arrives: its wrapper's copy (IPC), or the value the
 * browser host's message already carried raw. A malformed text (a damaged file) throws a SyntaxError.
 */
export function parseJsonText<T extends readonly unknown[]>(received: JsonText<T> | T): T {
  if (Array.isArray(received)) return received as T;
  return JSON.parse((received as JsonText<T>).json) as T;
}
