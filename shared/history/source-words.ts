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
 * Whether a value from this source came from the analyst's hand: typed, pasted, filled, replaced,
 * or kept as theirs against the service's in a conflict. The grid marks every other value (the
 * service's, an import's, the meters', one from before history, whose source is unknown). Undo
 * and redo put back an earlier value, whose own source decides (null: inherit).
 */
export function fromHand(source: ChangeSource): boolean | null {
  switch (source.kind) {
    case 'typed':
    case 'paste':
    case 'fill':
    case 'replace':
    case 'clear':
      return true;
    case 'conflict':
      return source.choice === 'mine';
    case 'undo':
    case 'redo':
      return null;
    default:
      return false;
  }
}
