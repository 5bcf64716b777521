/**
 * The grid bench's floors (issue 33), each the least work that gives what the analyst sees, on the
 * same machine in the same run, in the same Chromium:
 *
 * - start to an interactive grid: a bare AG Grid (its vanilla bundle, no app code) given the same
 *   workspace's rows as one message over the same transport (a WebSocket on 127.0.0.1). The clock
 *   starts, as ours does, before anything is started; the floor's server reads the rows from the
 *   same SQLite file in one statement and sends their stored text, unparsed, as one message; the
 *   page parses it and gives it to AG Grid whole. An app cannot show the rows with less: they are
 *   on disk, the grid is in a page, and one message is the least the transport can carry them in.
 *   The floor's first row comes with every row in the grid; ours draws a first page and reads the
 *   rest after it, so the bench also times ours to its last row, against the same floor.
 * - keypress to saved: the same edit (a value typed into an annual cell, Enter) in a bare AG Grid of
 *   the same 100k annual rows, plus one round trip on the same transport and one SQLite transaction
 *   of the same size as ours: the asset's document written back and one journal row carrying its
 *   before and after images (what the app's undo and audit need), on a file opened as the app opens
 *   its files (`openSqlite`: WAL, synchronous FULL, 16 KiB pages). The documents wait parsed in
 *   memory, so no read of the row is counted: that much of ours is ours to save.
 *
 * Both pages are served with `Cache-Control: no-store`, as the app's are, so Chromium keeps no
 * compiled script between loads and a second load is not cheaper than the first.
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import type { BrowserContext, Page } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { annualFieldCatalog, assetFieldCatalog } from '../../shared/domain';
import { annualColumns, assetColumns } from '../../renderer/src/grid-model/columns';
import { openSqlite } from '../../electron/storage/sqlite';
import { percentile } from './goal';

const prefs = { area_units_name: 'square_metres', currency: 'EUR' };

/** The app's columns, as plain AG Grid column definitions (no app renderers). */
function columnDefs(): { assets: unknown[]; annual: unknown[] } {
  const status = { field: '__status', headerName: '', width: 56, pinned: 'left' };
  const assets = [
    status,
    ...assetColumns(assetFieldCatalog, prefs).map((c) => ({
      field: c.field,
      headerName: c.headerName,
      headerTooltip: c.headerTooltip,
      width: c.width,
      pinned: c.pinned,
      editable: c.editable,
    })),
  ];
  const annual = [
    status,
    { field: 'name', headerName: 'Asset', width: 220, pinned: 'left' },
    { field: 'year', headerName: 'Year', width: 80, pinned: 'left' },
    ...annualColumns(annualFieldCatalog, prefs).map((g) => ({
      headerName: g.headerName,
      children: g.children.map((c) => ({
        field: c.field,
        headerName: c.headerName,
        headerTooltip: c.headerTooltip,
        width: c.width,
        editable: true,
      })),
    })),
  ];
  return { assets, annual };
}

/** The page: AG Grid's bundle, the rows from one message, the assets grid or the annual one (#annual). */
function pageHtml(): string {
  const columns = JSON.stringify(columnDefs());
  return `<!doctype html><html><head><meta charset="utf-8"><script src="/ag-grid.js"></script></head>
<body style="margin:0"><div id="grid" style="height:700px;width:1366px"></div><script>
const columns = ${columns};
const annual = location.hash === '#annual';
const socket = new WebSocket('ws://' + location.host + '/socket');
let grid = null;
socket.onmessage = (event) => {
  if (grid) { performance.mark('floor:saved'); return; }
  const docs = JSON.parse(event.data);
  const rows = [];
  if (annual) {
    for (const [id, doc] of docs)
      for (const rec of doc.annual_data || []) rows.push(Object.assign({}, rec, { __id: id + ':' + rec.year, __asset: id, name: doc.name }));
  } else {
    for (const [id, doc] of docs) { doc.__id = id; rows.push(doc); }
  }
  grid = agGrid.createGrid(document.querySelector('#grid'), {
    columnDefs: annual ? columns.annual : columns.assets,
    rowData: rows,
    getRowId: (p) => p.data.__id,
    rowSelection: { mode: 'multiRow', checkboxes: true, headerCheckbox: true },
    rowHeight: 28, headerHeight: 30, groupHeaderHeight: 26, rowBuffer: 10, animateRows: false,
    onCellValueChanged: (e) => socket.send(JSON.stringify({ id: e.data.__asset, year: e.data.year, field: e.colDef.field, value: e.newValue })),
  });
};
</script></body></html>`;
}

interface FloorServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The floor's server: on start it reads the workspace's rows (one statement, their stored text) and
 * serves the page, AG Grid's bundle and the socket; each message on the socket is an edit, saved in
 * one transaction to `editFile` and answered.
 */
async function startFloorServer(
  workspaceFile: string,
  edits: Database.Database | null,
): Promise<FloorServer> {
  const source = new Database(workspaceFile, { readonly: true, fileMustExist: true });
  const rows = source
    .prepare('SELECT local_id, current FROM assets WHERE current IS NOT NULL ORDER BY rowid')
    .raw()
    .all() as Array<[string, string]>;
  source.close();
  const message = `[${rows.map(([id, doc]) => `[${JSON.stringify(id)},${doc}]`).join(',')}]`;
  const docs = new Map<string, { text: string; doc: { annual_data?: Array<Record<string, unknown>> } }>();
  const update = edits?.prepare('UPDATE assets SET doc = ? WHERE local_id = ?');
  const journal = edits?.prepare(
    'INSERT INTO journal (local_id, payload, before, after) VALUES (?, ?, ?, ?)',
  );
  if (edits) for (const [id, text] of rows) docs.set(id, { text, doc: JSON.parse(text) as never });
  const html = pageHtml();
  const main = createRequire(import.meta.url).resolve('ag-grid-community');
  const bundle = readFileSync(
    join(main.slice(0, main.lastIndexOf('/dist/')), 'dist', 'ag-grid-community.min.js'),
  );
  const server: Server = createServer((req, res) => {
    const body = req.url === '/ag-grid.js' ? bundle : html;
    res.writeHead(200, {
      'Content-Type': req.url === '/ag-grid.js' ? 'text/javascript' : 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    res.end(body);
  });
  const sockets = new WebSocketServer({ server, path: '/socket' });
  sockets.on('connection', (socket) => {
    socket.send(message);
    socket.on('message', (data) => {
      const edit = JSON.parse(String(data)) as { id: string; year: number; field: string; value: unknown };
      const entry = docs.get(edit.id);
      const rec = entry?.doc.annual_data?.find((r) => r['year'] === edit.year);
      if (!entry || !rec || !update || !journal || !edits) return;
      rec[edit.field] = edit.value;
      const after = JSON.stringify(entry.doc);
      edits.transaction(() => {
        update.run(after, edit.id);
        journal.run(
          edit.id,
          JSON.stringify({ path: `${edit.year}.${edit.field}`, value: edit.value }),
          entry.text,
          after,
        );
      })();
      entry.text = after;
      socket.send('{"saved":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      // Chromium keeps idle connections open after the page has gone: closed here, not waited for.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A file like the app's, holding the same documents, for the edit floor's transactions. */
function editDatabase(dir: string, workspaceFile: string): Database.Database {
  const db = openSqlite(join(dir, 'floor.sqlite'));
  db.exec(`CREATE TABLE assets (local_id TEXT PRIMARY KEY, doc TEXT NOT NULL);
    CREATE TABLE journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, local_id TEXT NOT NULL, payload TEXT NOT NULL, before TEXT, after TEXT)`);
  db.exec(`ATTACH DATABASE '${workspaceFile.replace(/'/g, "''")}' AS ws`);
  db.exec('INSERT INTO assets SELECT local_id, current FROM ws.assets WHERE current IS NOT NULL');
  db.exec('DETACH DATABASE ws');
  return db;
}

export interface GridFloors {
  /** Start to a bare assets grid's first row, ms (median of `runs`). */
  startMs: number;
  startRuns: number[];
  /** Enter to the edit saved and answered, ms, per edit. */
  edits: number[];
}

/** Both floors, in fresh pages of `context`; `workspaceFile` is the seeded workspace (not written). */
export async function measureGridFloors(
  context: BrowserContext,
  workspaceFile: string,
  opts: { runs: number; edits: number },
): Promise<GridFloors> {
  const startRuns: number[] = [];
  const t0 = Date.now();
  const debug = (what: string): void => {
    if (process.env['BENCH_DEBUG']) console.log(`floor, ${Date.now() - t0} ms: ${what}`);
  };
  const newPage = async (): Promise<Page> => {
    const page = await context.newPage();
    if (process.env['BENCH_DEBUG']) {
      page.on('console', (m) => console.log('floor page:', m.text()));
      page.on('pageerror', (e) => console.log('floor page error:', e.message));
    }
    return page;
  };
  for (let run = 0; run < opts.runs; run++) {
    const page = await newPage();
    const start = Date.now();
    const server = await startFloorServer(workspaceFile, null);
    debug('server up');
    try {
      await page.goto(server.url);
      debug('page loaded');
      await page.locator('#grid .ag-row').first().waitFor({ timeout: 120_000 });
      debug('first row');
      startRuns.push(Date.now() - start);
    } finally {
      await page.close();
      await server.close();
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-grid-floor-'));
  const db = editDatabase(dir, workspaceFile);
  debug('edit database');
  const server = await startFloorServer(workspaceFile, db);
  const page = await newPage();
  try {
    await page.goto(`${server.url}#annual`);
    await page.locator('#grid .ag-row').first().waitFor({ timeout: 120_000 });
    await page.waitForTimeout(500);
    const edits = await measureFloorEdits(page, opts.edits);
    return { startMs: percentile(startRuns, 50), startRuns, edits };
  } finally {
    await page.close();
    await server.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** As the bench's own edits: the same cells, the same keys; Enter keydown to the answer's mark. */
async function measureFloorEdits(page: Page, count: number): Promise<number[]> {
  await page.evaluate(
    `window.addEventListener('keydown', (e) => { if (e.key === 'Enter') window.__enterAt = performance.now(); }, true)`,
  );
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    await page
      .locator(`#grid .ag-row[row-index="${(i % 12) + 1}"] [col-id="en_abs_wf"]`)
      .first()
      .click();
    await page.keyboard.type(String(50_000 + i));
    await page.keyboard.press('Enter');
    const elapsed = await page.evaluate(`new Promise((resolve) => {
      const check = () => {
        const marks = performance.getEntriesByName('floor:saved');
        const last = marks.length > 0 ? marks[marks.length - 1].startTime : 0;
        if (window.__enterAt !== undefined && last > window.__enterAt) resolve(last - window.__enterAt);
        else requestAnimationFrame(check);
      };
      check();
    })`);
    out.push(elapsed as number);
  }
  return out;
}
