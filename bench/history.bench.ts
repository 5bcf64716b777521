/**
 * Cell history (issue 31), measured at the workspace store (the grid's and the sync's own benches
 * measure the whole path; here both sides of each ratio run in this process, in this run, over the
 * same SQLite files, so the ratio is history's own cost):
 * - keypress to saved: one cell edit through main's own `workspace.edit` handler, as the bridge
 *   calls it for a keypress (a labelled step, one transaction, WAL + synchronous FULL, the asset's
 *   view with its rules and main's history state answered), median of 300, with the cell history
 *   recording it against the same handler over a store opened without a recorder; ≤ +10 %. The
 *   renderer's and the transport's shares, the same on both sides, are left out (the grid bench
 *   measures them), so the ratio is history's against all of main's work for a keypress. Each
 *   handler edit is its asset's first (its history's id is its own row's: no `cell_docs` row). The store
 *   alone (the step and the write, no view) on the same asset's next cell is a GOAL of its own:
 *   there history's cost is a larger share of a smaller figure. A keypress's history rides in its
 *   own journal row (the tail, electron/workspace/history-tail.ts), moved into the history's table
 *   off the keypress path (the file quiet, the tail at its limit, at close): that move is printed
 *   per row, and the means (which include the moves at the limit) beside the medians.
 * - the 20k pull's local part: 20,000 listed assets (6 years each) merged into an empty workspace
 *   a thousand to a transaction, as the pull's worker does (pull-run.ts), with and without history;
 *   ≤ +10 % (medians of 5, alternated). Then a second pull in which every asset changed 8 values: the file's growth per
 *   changed cell (≤ 64 bytes), the history's tables measured by SQLite's dbstat.
 * - a cell's history in a workspace of 100,000 annual rows whose history holds 100,000 changes, 50
 *   of them on that cell: ≤ 20 ms (median of 30).
 * - the audit log of 1,000,000 changes to CSV and to XLSX: ≤ 10 s each, peak RSS ≤ 400 MB.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Asset } from '../shared/domain';
import { listedOf } from '../shared/sync/listed-asset';
import { exportAuditLog } from '../electron/history/history-service';
import { RemoteMerge, remoteCopy, type RemoteCopy } from '../electron/sync/remote-merge';
import { editHandlers } from '../electron/workspace/edit-handlers';
import { readTail } from '../electron/workspace/history-tail';
import { WorkspaceStore } from '../electron/workspace/workspace-store';
import { specIdName } from '../shared/sync/asset-id-name';
import { goal, percentile } from './support/goal';

const dir = mkdtempSync(join(tmpdir(), 'asset-desk-history-bench-'));
const years = [2019, 2020, 2021, 2022, 2023, 2024];
let fileNo = 0;
const open = (history: boolean) =>
  WorkspaceStore.open(join(dir, `ws-${++fileNo}.sqlite`), history ? {} : { recorder: null });

/** "hh:mm:ss" of the i-th second of a day. */
const stamp = (i: number): string =>
  [Math.floor(i / 3_600) % 24, Math.floor(i / 60) % 60, i % 60]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');

function listed(i: number, round: number): Asset {
  return {
    service_asset_id: i + 1,
    partners_id: 100_000_000 + i,
    name: `Asset ${i}`,
    country: 'NL',
    city: 'Amsterdam',
    ownership: 100,
    property_type_code: 'OCHI',
    size: 1_000 + i,
    created_at: '2026-01-01T00:00:00Z',
    // Each asset its own second of the round's day, as a service's are (the history keeps the day).
    updated_at: `2026-03-0${round + 1}T${stamp(i)}Z`,
    asset_size: String(1_000 + i),
    _validations: [],
    _outliers: [],
    certifications: [],
    annual_data: years.map((year, k) => ({
      year,
      owned_entire_period: true,
      tenant_ctrl: false,
      whole_building: true,
      en_abs_wf: 50_000 + i + k + round,
      en_abs_wd: 1_000 + k + round,
      en_cov_wf: 800,
      en_tot_wf: 1_000,
      wat_abs_w: 300 + k + round,
      _validations: [],
    })),
  } as unknown as Asset;
}

/** The pull's local part: pages of listed assets merged a thousand to a transaction. */
function pull(store: WorkspaceStore, count: number, round: number): number {
  const started = performance.now();
  for (let first = 0; first < count; first += 1_000) {
    const copies: RemoteCopy[] = [];
    for (let i = first; i < Math.min(count, first + 1_000); i++) {
      const copy = remoteCopy(listedOf(listed(i, round)));
      if (copy) copies.push(copy);
    }
    const known = new RemoteMerge(store).knownRows(copies.map((copy) => copy.id));
    store.transaction(() => {
      for (const copy of copies) new RemoteMerge(store).applyCopy(copy, known.get(copy.id) ?? null);
    });
  }
  return performance.now() - started;
}

/** The audit log's size (the million; HISTORY_AUDIT_CHANGES for a quicker look). */
const auditChanges = Number(process.env['HISTORY_AUDIT_CHANGES'] ?? 1_000_000);
const median = (values: number[]) => percentile(values, 50);

export default async function run(): Promise<void> {
  // --- keypress to saved
  {
    const stores = [open(true), open(false)];
    for (const store of stores) pull(store, 2_000, 0);
    const ids = stores.map((store) => store.listAssets().map((record) => record.localId));
    const handlers = stores.map((store) =>
      editHandlers(
        () => store,
        () => specIdName,
      ),
    );
    const times: [number[], number[]] = [[], []];
    const storeTimes: [number[], number[]] = [[], []];
    // The process's CPU time per edit beside the wall time, which waits on fsync and, on a loaded
    // machine, on the other jobs' writes to the same disk: the steadier figure of history's own work.
    const cpus: [number[], number[]] = [[], []];
    const storeCpus: [number[], number[]] = [[], []];
    for (let n = 0; n < 600; n++) {
      // Even rounds through the handler, odd ones at the store; the sides alternate who goes first.
      const atStore = n % 2 === 1;
      for (const side of n % 4 < 2 ? [0, 1] : [1, 0]) {
        const store = stores[side]!;
        const localId = ids[side]![(n >> 1) % 2_000]!;
        const path = atStore ? 'annual_data/2023/en_abs_wf' : 'annual_data/2024/en_abs_wf';
        const started = performance.now();
        const cpu = process.cpuUsage();
        if (atStore)
          store.step('edit of 1 cell', () =>
            store.setValues([{ localId, path, value: 60_000 + n }], { kind: 'typed' }),
          );
        else handlers[side]!['workspace.edit']({ edits: [{ localId, path, value: 60_000 + n }] });
        (atStore ? storeTimes : times)[side as 0 | 1].push(performance.now() - started);
        const used = process.cpuUsage(cpu);
        (atStore ? storeCpus : cpus)[side as 0 | 1].push((used.user + used.system) / 1_000);
      }
    }
    const [ours, without] = [median(times[0]), median(times[1])];
    const [ourStore, withoutStore] = [median(storeTimes[0]), median(storeTimes[1])];
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const tail = readTail(stores[0]!.cells.access).cells.length;
    const moveStarted = performance.now();
    stores[0]!.settleHistory();
    const move = performance.now() - moveStarted;
    console.log(
      `the tail's move, off the keypress path: ${tail} rows in ${move.toFixed(1)} ms (${((move / tail) * 1_000).toFixed(0)} us a row); ` +
        `means with the moves at its limit: handler x${(mean(times[0]) / mean(times[1])).toFixed(2)}, store x${(mean(storeTimes[0]) / mean(storeTimes[1])).toFixed(2)}; ` +
        `CPU time medians: handler ${median(cpus[0]).toFixed(3)} against ${median(cpus[1]).toFixed(3)} ms (x${(median(cpus[0]) / median(cpus[1])).toFixed(2)}), ` +
        `store ${median(storeCpus[0]).toFixed(3)} against ${median(storeCpus[1]).toFixed(3)} ms (x${(median(storeCpus[0]) / median(storeCpus[1])).toFixed(2)})`,
    );
    console.log(
      `keypress to saved (main's handler): ${ours.toFixed(2)} ms with history, ${without.toFixed(2)} ms without; ` +
        `the store alone: ${ourStore.toFixed(2)} ms against ${withoutStore.toFixed(2)} ms (x${(ourStore / withoutStore).toFixed(2)})`,
    );
    goal(
      "history keypress to saved (main's handler), with history against without (median of 300)",
      ours / without,
      'x',
      '<=',
      1.1,
    );
    goal(
      "history keypress to saved (the store alone, the asset's later edit), with history against without (median of 300)",
      ourStore / withoutStore,
      'x',
      '<=',
      1.1,
    );
    for (const store of stores) store.close();
  }

  // --- the 20k pull, and the file's growth per changed cell
  {
    const count = 20_000;
    const runs: [number[], number[]] = [[], []];
    // The pull is synchronous, so the process's CPU time around it is its own: beside the wall
    // time (which waits on fsync and on the other jobs of a loaded machine) the steadier figure.
    const cpus: [number[], number[]] = [[], []];
    let growth = NaN;
    for (let round = 0; round < 5; round++) {
      for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const store = open(side === 0);
        const cpu = process.cpuUsage();
        runs[side as 0 | 1].push(pull(store, count, 0));
        const used = process.cpuUsage(cpu);
        cpus[side as 0 | 1].push((used.user + used.system) / 1_000);
        if (side === 0 && round === 0) {
          const historyBytes = () =>
            (
              store.cells.access
                .sql(
                  "SELECT COALESCE(SUM(pgsize), 0) AS n FROM dbstat WHERE name IN ('change_sources', 'sqlite_autoindex_change_sources_1', 'cell_docs', 'sqlite_autoindex_cell_docs_1', 'cell_paths', 'sqlite_autoindex_cell_paths_1', 'cell_history', 'cell_history_cell', 'cell_marks')",
                )
                .get() as { n: number }
            ).n;
          const first = historyBytes();
          const cells = (
            store.cells.access.sql('SELECT COUNT(*) AS n FROM cell_history').get() as { n: number }
          ).n;
          const changes = (() => {
            pull(store, count, 1);
            return (
              (store.cells.access.sql('SELECT COUNT(*) AS n FROM cell_history').get() as { n: number }).n -
              cells
            );
          })();
          growth = (historyBytes() - first) / changes;
          console.log(
            `history after the first pull: ${(first / 1024).toFixed(0)} KiB for ${count} assets (${cells} cell rows: a pull's new asset writes nothing); the second pull changed ${changes} cells`,
          );
        }
        store.close();
      }
    }
    const [ours, without] = [median(runs[0]), median(runs[1])];
    console.log(
      `20k pull, local part: ${ours.toFixed(0)} ms with history, ${without.toFixed(0)} ms without; CPU ${median(cpus[0]).toFixed(0)} ms and ${median(cpus[1]).toFixed(0)} ms (x${(median(cpus[0]) / median(cpus[1])).toFixed(2)})`,
    );
    goal(
      'history 20k pull (local part), with history against without (median of 5)',
      ours / without,
      'x',
      '<=',
      1.1,
    );
    goal('history file growth per changed cell (second pull)', growth, 'bytes', '<=', 64);
  }

  // --- a cell's history at 100k rows with 50 changes on the cell
  {
    const store = open(true);
    pull(store, 16_700, 0);
    const access = store.cells.access;
    const ids = store.listAssets().map((record) => record.localId);
    // 100,000 changes over the workspace's cells, 50 of them on one cell, written as the recorder would.
    store.transaction(() => {
      for (let n = 0; n < 1_000; n++) {
        const edits = [];
        for (let k = 0; k < 100; k++) {
          const localId = n < 50 && k === 0 ? ids[0]! : ids[(n * 100 + k) % ids.length]!;
          edits.push({ localId, path: `annual_data/${years[k % 6]}/en_abs_wf`, value: n * 100 + k });
        }
        store.setValues(edits, { kind: n % 2 ? 'paste' : 'typed' });
      }
    });
    // The last of them still in the tail (history-tail.ts), which the cell's history reads too.
    const rows =
      (access.sql('SELECT COUNT(*) AS n FROM cell_history').get() as { n: number }).n +
      readTail(access).cells.length;
    const times: number[] = [];
    let length = 0;
    for (let n = 0; n < 30; n++) {
      const started = performance.now();
      length = store.cells.entries({ kind: 'asset', id: ids[0]! }, 'annual_data/2019/en_abs_wf', 1).length;
      times.push(performance.now() - started);
    }
    console.log(`cell history: ${rows} changes recorded, the cell's history ${length} entries`);
    goal("history a cell's history at 100k rows, 50 changes (median of 30)", median(times), 'ms', '<=', 20);
    store.close();
  }

  // --- the audit log of 1,000,000 changes
  {
    const store = open(true);
    pull(store, 2_000, 0);
    const access = store.cells.access;
    store.transaction(() => {
      const typed = access
        .sql(
          'INSERT INTO change_sources (json) VALUES (?) ON CONFLICT (json) DO UPDATE SET json = excluded.json RETURNING id',
        )
        .get('{"kind":"typed"}') as { id: number };
      const book = access
        .sql('INSERT INTO change_sources (json) VALUES (?) RETURNING id')
        .get('{"kind":"workbook","file":"assets-2025.xlsx"}') as { id: number };
      const paths = years.flatMap((year) =>
        ['en_abs_wf', 'en_abs_wd', 'wat_abs_w'].map(
          (field) =>
            (
              access
                .sql(
                  'INSERT INTO cell_paths (path) VALUES (?) ON CONFLICT (path) DO UPDATE SET path = excluded.path RETURNING id',
                )
                .get(`annual_data/${year}/${field}`) as { id: number }
            ).id,
        ),
      );
      // The pulled assets' rows, as their first changes make them.
      const docs = store
        .listAssets()
        .map(
          (record) =>
            (
              access
                .sql(
                  "INSERT INTO cell_docs (kind, ref, origin_at, origin_source) VALUES ('asset', ?, 0, ?) RETURNING id",
                )
                .get(record.localId, typed.id) as { id: number }
            ).id,
        );
      const insert = access.sql(
        'INSERT INTO cell_history (doc, path, at, value, previous, source, place) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (let n = 0; n < auditChanges; n++) {
        const fromBook = n % 3 === 0;
        insert.run(
          docs[n % docs.length],
          paths[n % paths.length],
          n,
          n % 7 === 0 ? JSON.stringify(`=HYPERLINK("x${n}")`) : 1_000 + n,
          999 + n,
          fromBook ? book.id : typed.id,
          fromBook ? `Energy!F${(n % 5_000) + 3}` : null,
        );
      }
    });
    // The peak so far (the sections above and the million rows' insert) beside the goal's peak,
    // so a reader sees what the exports themselves add.
    console.log(
      `before the audit log's exports: RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB, peak so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
    for (const format of ['csv', 'xlsx'] as const) {
      const file = join(dir, `audit.${format}`);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const lines = await exportAuditLog(store, file, format, {});
      const seconds = (performance.now() - started) / 1_000;
      const used = process.cpuUsage(cpu);
      // The CPU time is what a loaded machine moves least (the wall time waits for the cores).
      console.log(
        `audit log ${format}: ${lines} lines, ${(statSync(file).size / 1e6).toFixed(1)} MB, CPU ${((used.user + used.system) / 1e6).toFixed(1)} s, peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
      );
      goal(`history audit log of 1M changes, ${format}`, seconds, 's', '<=', 10);
    }
    goal('history audit log peak RSS (this process)', process.resourceUsage().maxRSS / 1024, 'MB', '<=', 400);
    store.close();
  }

  rmSync(dir, { recursive: true, force: true });
}
