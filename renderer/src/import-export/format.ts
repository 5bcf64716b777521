/** Text for the Import / Export dialog: cell values, sizes, service-export progress. Pure. */
import type { Scalar } from '../../../shared/sync/asset-doc';
import type { RowStatus, ServiceExportProgressView } from '../../../shared/workbook/import-export-types';

/** A value as the analyst typed it: numbers unformatted, so they match the workbook's cells. */
export function showValue(value: Scalar): string {
  if (value === null) return '(empty)';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value);
}

export function showBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export const statusLabel: Record<RowStatus, string> = {
  new: 'New',
  changed: 'Changed',
  unchanged: 'Unchanged',
  rejected: 'Rejected',
};

/** Rejected rows first: they are what the analyst has to act on. */
export const statusOrder: Record<RowStatus, number> = { rejected: 0, new: 1, changed: 2, unchanged: 3 };

export function progressText(p: ServiceExportProgressView): string {
  const seconds = Math.round(p.elapsedMs / 1000);
  switch (p.phase) {
    case 'listening':
      return 'Asking the service for its export…';
    case 'requested':
      return 'Export requested; the service is preparing the file…';
    case 'waiting':
      return `The service is preparing the file (${seconds} s)…`;
    case 'downloading': {
      const received = showBytes(p.received ?? 0);
      return p.total ? `Downloading ${received} of ${showBytes(p.total)}…` : `Downloading ${received}…`;
    }
    case 'done':
      return `Downloaded in ${seconds} s.`;
  }
}
