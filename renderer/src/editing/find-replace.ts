/**
 * Find and replace over a grid's displayed text, the pure part: which cells match, which match is
 * next from where the analyst stands, and what a replace writes. Cells are display positions (row
 * index after sort and filter, column index among the displayed data columns), read row by row, left
 * to right, as the eye reads the grid. Matching is on the formatted text the cell shows, ignoring
 * case; a replacement is parsed by the column afterwards, so "1,200" becomes the number 1200.
 */
import type { Scalar } from '../../../shared/sync/asset-doc';

export interface CellPos {
  row: number;
  col: number;
}

/** Whether a cell's shown text contains the query (ignoring case); an empty query matches nothing. */
export function cellMatches(text: string, query: string): boolean {
  return query !== '' && text.toLocaleLowerCase().includes(query.toLocaleLowerCase());
}

/** Every matching cell, row by row, left to right. */
export function findMatches(
  rowCount: number,
  colCount: number,
  textAt: (row: number, col: number) => string,
  query: string,
): CellPos[] {
  const out: CellPos[] = [];
  if (query === '') return out;
  const needle = query.toLocaleLowerCase();
  for (let row = 0; row < rowCount; row++)
    for (let col = 0; col < colCount; col++)
      if (textAt(row, col).toLocaleLowerCase().includes(needle)) out.push({ row, col });
  return out;
}

function compare(a: CellPos, b: CellPos): number {
  return a.row !== b.row ? a.row - b.row : a.col - b.col;
}

/**
 * The index of the match to go to from `from` (the current match or the focused cell): the first one
 * after it (or before, going back), wrapping round the grid. `inclusive` takes `from` itself when it
 * matches (the first match as the query is typed). -1 when there are no matches.
 */
export function stepMatch(
  matches: readonly CellPos[],
  from: CellPos | null,
  direction: 1 | -1,
  inclusive = false,
): number {
  if (matches.length === 0) return -1;
  if (!from) return direction === 1 ? 0 : matches.length - 1;
  if (direction === 1) {
    const i = matches.findIndex((m) => (inclusive ? compare(m, from) >= 0 : compare(m, from) > 0));
    return i === -1 ? 0 : i;
  }
  for (let i = matches.length - 1; i >= 0; i--) {
    const c = compare(matches[i]!, from);
    if (inclusive ? c <= 0 : c < 0) return i;
  }
  return matches.length - 1;
}

/** Every occurrence of the query in the text (ignoring case) replaced, literally (no patterns). */
export function replaceInText(text: string, query: string, replacement: string): string {
  if (query === '') return text;
  const lower = text.toLocaleLowerCase();
  const needle = query.toLocaleLowerCase();
  let out = '';
  let at = 0;
  for (let i = lower.indexOf(needle); i !== -1; i = lower.indexOf(needle, at)) {
    out += text.slice(at, i) + replacement;
    at = i + needle.length;
  }
  return out + text.slice(at);
}

export interface ReplaceCell extends CellPos {
  /** The text the cell shows now. */
  text: string;
  editable: boolean;
}

export interface ReplacePlan {
  edits: Array<CellPos & { value: Scalar }>;
  /** Matching cells left alone because they are read-only. */
  skipped: number;
}

/** What a replace writes: each matching, editable cell's text with the query replaced, parsed by its column. */
export function planReplace(
  cells: Iterable<ReplaceCell>,
  query: string,
  replacement: string,
  parse: (col: number, text: string) => Scalar,
): ReplacePlan {
  const edits: ReplacePlan['edits'] = [];
  let skipped = 0;
  for (const cell of cells) {
    if (!cellMatches(cell.text, query)) continue;
    if (!cell.editable) {
      skipped++;
      continue;
    }
    const next = replaceInText(cell.text, query, replacement);
    if (next !== cell.text) edits.push({ row: cell.row, col: cell.col, value: parse(cell.col, next) });
  }
  return { edits, skipped };
}

/** "3 of 12", or why there is nothing to count. */
export function matchLabel(index: number, count: number, query: string): string {
  if (query === '') return '';
  if (count === 0) return 'No matches';
  return index < 0 ? `${count} ${count === 1 ? 'match' : 'matches'}` : `${index + 1} of ${count}`;
}

const cells = (n: number): string => `${n} ${n === 1 ? 'cell' : 'cells'}`;

/** What a replace tells the analyst, read-only cells counted. */
export function replaceMessage(replaced: number, skipped: number): string {
  const left = skipped > 0 ? ` (${cells(skipped)} read-only, skipped)` : '';
  return replaced === 0 ? `Nothing replaced${left}` : `Replaced ${cells(replaced)}${left}`;
}
