/**
 * Delimited text as spreadsheets read and write it (RFC 4180): records by line (CRLF, LF or CR),
 * fields by a delimiter (tab on the clipboard, comma or semicolon in CSV files), a field holding the
 * delimiter, a quote or a line break wrapped in double quotes with its quotes doubled. The CSV
 * import and export (main) and the grids' copy and paste (renderer) both go through here.
 */

/** A record's line end when writing: what Excel writes, and what every reader accepts. */
export const RECORD_END = '\r\n';

export interface ReadOptions {
  /** One character: `\t`, `,` or `;`. */
  delimiter: string;
  /**
   * A quoted field still open at the end of the text: `error` throws {@link UnterminatedQuoteError}
   * (a file cut short), `close` ends the field there (clipboard text is taken as the user gave it).
   */
  unterminatedQuote?: 'error' | 'close';
  /**
   * Fields a record may have: one more throws {@link TooManyFieldsError} at once, before the record
   * is held (39 million commas once made one record of 39 million fields).
   */
  maxFields?: number;
}

export class TooManyFieldsError extends Error {
  constructor(
    readonly record: number,
    readonly limit: number,
  ) {
    super(`Record ${record} has more than ${limit} fields.`);
    this.name = 'TooManyFieldsError';
  }
}

export class UnterminatedQuoteError extends Error {
  constructor() {
    super('The text ends inside a quoted value.');
    this.name = 'UnterminatedQuoteError';
  }
}

/**
 * The records of the text, one at a time (an imported file is read without an array of all its
 * rows). The line break ending the last record does not start another, empty one, so what Excel puts
 * on the clipboard (every row ends with CRLF) reads as the rows that were copied.
 */
export function* delimitedRecords(text: string, options: ReadOptions): Generator<string[]> {
  const { delimiter } = options;
  const delimiterCode = delimiter.charCodeAt(0);
  const maxFields = options.maxFields ?? Infinity;
  let records = 0;
  let record: string[] = [];
  let field = '';
  let quoted = false;
  // A quote opens a quoted field only as a field's first character; `""` alone is an empty field.
  let atFieldStart = true;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && atFieldStart) {
      quoted = true;
      atFieldStart = false;
    } else if (ch === delimiter) {
      record.push(field);
      if (record.length >= maxFields) throw new TooManyFieldsError(records + 1, maxFields);
      field = '';
      atFieldStart = true;
    } else if (ch === '\n' || ch === '\r') {
      record.push(field);
      records++;
      yield record;
      record = [];
      field = '';
      atFieldStart = true;
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else {
      // A plain run up to the next delimiter or line end, taken as one slice: a file of a million
      // rows is not built one character at a time (a quote inside the run is literal, as before).
      let j = i + 1;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === delimiterCode || c === 10 || c === 13) break;
        j++;
      }
      field += text.slice(i, j);
      atFieldStart = false;
      i = j;
      continue;
    }
    i++;
  }
  if (quoted && (options.unterminatedQuote ?? 'error') === 'error') throw new UnterminatedQuoteError();
  if (!atFieldStart || record.length > 0) {
    record.push(field);
    yield record;
  }
}

/** All the records of the text (see {@link delimitedRecords}). */
export function parseDelimited(text: string, options: ReadOptions): string[][] {
  return [...delimitedRecords(text, options)];
}

export interface WriteOptions {
  delimiter: string;
  /** Also quote a field that starts or ends with whitespace, which some CSV readers trim away. */
  quoteEdgeWhitespace?: boolean;
}

const mustQuoteByDelimiter = new Map<string, RegExp>();

function mustQuote(delimiter: string): RegExp {
  let pattern = mustQuoteByDelimiter.get(delimiter);
  if (!pattern) {
    const escaped = delimiter.replace(/[\\\]^-]/g, '\\$&');
    pattern = new RegExp(`["\\r\\n${escaped}]`);
    mustQuoteByDelimiter.set(delimiter, pattern);
  }
  return pattern;
}

/** One field, quoted only when a reader would otherwise split or trim it. */
export function formatDelimitedField(value: string, options: WriteOptions): string {
  const quote =
    mustQuote(options.delimiter).test(value) ||
    (options.quoteEdgeWhitespace === true && /^\s|\s$/.test(value));
  return quote ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One record, without its line end (a writer that streams adds {@link RECORD_END} itself). */
export function formatDelimitedRecord(fields: readonly string[], options: WriteOptions): string {
  return fields.map((field) => formatDelimitedField(field, options)).join(options.delimiter);
}

/** Records separated by {@link RECORD_END}, with none after the last. */
export function formatDelimited(records: readonly (readonly string[])[], options: WriteOptions): string {
  return records.map((record) => formatDelimitedRecord(record, options)).join(RECORD_END);
}
