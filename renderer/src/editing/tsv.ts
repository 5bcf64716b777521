/**
 * Tab-separated text as Excel, LibreOffice and Google Sheets put it on the clipboard. Clipboard text
 * is whatever the user copied, so a quote left open simply runs to the end instead of refusing the
 * paste.
 */
import { formatDelimited, parseDelimited } from '../../../shared/text/delimited';

export function parseTsv(text: string): string[][] {
  return parseDelimited(text, { delimiter: '\t', unterminatedQuote: 'close' });
}

export function formatTsv(rows: readonly (readonly string[])[]): string {
  return formatDelimited(rows, { delimiter: '\t' });
}
