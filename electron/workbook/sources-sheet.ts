/**
 * The workbook's Sources tab (issue 31, item 4; asked for in the export card, off by default): one
 * row per cell whose current value did not come from the analyst's hand or that has a history, with
 * where that value came from in the history panel's words (shared/history/source-words.ts) and
 * when. Text is written as inline strings (shared/workbook/xlsx-parts.ts), never as a formula, so a
 * value such as `=HYPERLINK(...)` stays text. Our own reader skips the tab by its marker
 * (read-workbook.ts), so a book with it imports as one without.
 */
import { pathLabel } from '../../shared/domain/path-labels';
import { sourceInWords } from '../../shared/history/source-words';
import { SOURCES_MARKER, type PlainSheet } from '../../shared/workbook/plain-sheet';
import { workbookLayout, type SheetName } from '../../shared/workbook/layout';
import { cellSources } from '../workspace/cell-sources';
import type { WorkspaceStore } from '../workspace/workspace-store';

/** Rows of a tab: Excel's 1,048,576 less the marker and header rows; a longer list goes on in "Sources 2". */
const ROWS_PER_TAB = 1_048_574;

const columns = [
  { name: 'Partner ID', width: 14 },
  { name: 'Asset', width: 28 },
  { name: 'Tab', width: 22 },
  { name: 'Field', width: 40 },
  { name: 'Path', width: 30 },
  { name: 'Value', width: 16 },
  { name: 'Source', width: 40 },
  { name: 'Time (UTC)', width: 20 },
];

let tabs: Map<string, SheetName> | undefined;

/** The tab of this workbook where a cell's path is (an annual field's by its topic). */
function tabOf(path: string): string {
  if (!tabs) {
    tabs = new Map();
    for (const sheet of workbookLayout({ years: [2000] }))
      for (const { source } of sheet.columns)
        if (source.kind === 'asset' || source.kind === 'annual')
          tabs.set(`${source.kind}:${source.field}`, sheet.name);
  }
  const [head, , field] = path.split('/');
  if (head === 'certifications') return 'Building Certifications';
  if (head === 'energy_ratings') return 'Energy Ratings';
  if (head === 'annual_data') return tabs.get(`annual:${field ?? ''}`) ?? '';
  return tabs.get(`asset:${head ?? ''}`) ?? '';
}

const timeText = (at: number): string => new Date(at).toISOString().replace('T', ' ').slice(0, 19);

/** The Sources tab(s) of the workspace's assets (deleted ones left out, as in the other tabs). */
export function sourcesSheets(store: WorkspaceStore): PlainSheet[] {
  const records = store.listAssets().filter((record) => record.current !== null);
  const byId = new Map(records.map((record) => [record.localId, record]));
  const rows: Array<Array<string | number | boolean | null>> = [];
  cellSources(
    store.cells,
    records.map((record) => ({ localId: record.localId, doc: record.current ?? {} })),
    (localId, cells) => {
      const record = byId.get(localId);
      const name = record?.current?.['name'];
      const asset = typeof name === 'string' ? name : '';
      const given = record?.partnersId ?? record?.current?.partners_id;
      const partnersId = typeof given === 'number' || typeof given === 'string' ? given : null;
      for (const cell of cells)
        rows.push([
          partnersId,
          asset,
          tabOf(cell.path),
          pathLabel(cell.path),
          cell.path,
          cell.value,
          sourceInWords(cell.source),
          timeText(cell.at),
        ]);
    },
  );
  const sheets: PlainSheet[] = [];
  for (let start = 0; start < Math.max(rows.length, 1); start += ROWS_PER_TAB)
    sheets.push({
      name: start === 0 ? 'Sources' : `Sources ${start / ROWS_PER_TAB + 1}`,
      marker: SOURCES_MARKER,
      columns,
      rows: rows.length <= ROWS_PER_TAB ? rows : rows.slice(start, start + ROWS_PER_TAB),
    });
  return sheets;
}
