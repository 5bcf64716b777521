/** How the history's panels show a value, a time and an import (a cell's history, an import's record). */
import type { ImportSummary } from '../../../shared/history/import-record';
import { dayInWords } from '../../../shared/history/source-words';
import { formatValue } from '../grid-model/values';

export const shown = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '(empty)';
  return Array.isArray(value) ? value.join(', ') : formatValue(value);
};

/** "27 Nov 2026, 16:40", in the analyst's own time zone. */
export const timeOf = (at: number): string => {
  const date = new Date(at);
  const hh = String(date.getHours()).padStart(2, '0');
  const mm = String(date.getMinutes()).padStart(2, '0');
  return `${dayInWords(date.getTime() - date.getTimezoneOffset() * 60_000)}, ${hh}:${mm}`;
};

export const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What an import did, in one line ("2 new assets, 5 changed, 40 cells; 1 asset rejected"). */
export function importFacts(record: ImportSummary): string {
  const done =
    record.kind === 'readings'
      ? `${count(record.cells, 'reading')} added, ${count(record.created, 'new meter')}`
      : `${count(record.created, 'new asset')}, ${record.updated.toLocaleString('en-US')} changed, ${count(record.cells, 'cell')}`;
  return record.skipped > 0
    ? `${done}; ${record.skipped.toLocaleString('en-US')} ${record.skippedWhat}`
    : done;
}
