import type { ChangeSource, ChangeSourceKind } from './change-source';

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "3 Mar 2026" (UTC, so the same words on every machine); the text itself if it is no date. */
export function dayInWords(when: string | number): string {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) return String(when);
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

const plain: Partial<Record<ChangeSourceKind, string>> = {
  typed: 'typed',
  paste: 'pasted from the clipboard',
  fill: 'filled from the next cell (fill down or right)',
  replace: 'find and replace',
  clear: 'cleared',
  undo: 'undone',
  redo: 'redone',
  'send-anyway': 'sent anyway with its errors',
  'before-history': 'before history was kept',
};

/**
 * A change's source as the cell history and the audit log say it: "pasted from the clipboard",
 * "from assets-2025.xlsx, Energy!F12", "from the service, updated 3 Mar 2026", "from 3 meters".
 */
export function sourceInWords(source: ChangeSource): string {
  switch (source.kind) {
    case 'workbook': {
      const where = source.sheet ? `${source.sheet}!${source.cell ?? ''}` : (source.cell ?? '');
      return where ? `from ${source.file}, ${where}` : `from ${source.file}`;
    }
    case 'csv':
      return source.row === undefined ? `from ${source.file}` : `from ${source.file}, row ${source.row}`;
    case 'meters': {
      const meters = `${source.meters.length} ${source.meters.length === 1 ? 'meter' : 'meters'}`;
      const readings = `${source.readings} ${source.readings === 1 ? 'reading' : 'readings'}`;
      return `from ${meters} (${readings})`;
    }
    case 'service':
      return source.updatedAt
        ? `from the service, updated ${dayInWords(source.updatedAt)}`
        : 'from the service';
    case 'conflict':
      return source.choice === 'mine' ? 'a conflict, kept mine' : "a conflict, took the service's";
    default:
      return plain[source.kind] ?? source.kind;
  }
}

/**
 * Whether a value from this source is marked in the grid as not from the analyst's hand: imports,
 * meters, and the service's values that changed what was here (a pull, a conflict settled theirs).
 * Undo and redo put back an earlier value, whose own source decides (null: inherit).
 */
export function marksCell(source: ChangeSource): boolean | null {
  switch (source.kind) {
    case 'workbook':
    case 'csv':
    case 'meters':
    case 'service':
      return true;
    case 'conflict':
      return source.choice === 'theirs';
    case 'undo':
    case 'redo':
      return null;
    default:
      return false;
  }
}
