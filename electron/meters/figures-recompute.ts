import type { MeterWriteResult } from '../../shared/bridge/contract';
import type { FigureState } from '../../shared/meters/views';
import type { AssetIdName } from '../../shared/sync/asset-id-name';
import type { AssetView } from '../../shared/sync/types';
import { assetView } from '../workspace/asset-views';
import type { MeterDocChange, MeterStore } from '../workspace/meter-store';
import type { WorkspaceStore } from '../workspace/workspace-store';
import { assetMeters, figuresOf, figureWrites, touchedYears } from './meter-figures';

/**
 * The recompute of derived cells inside a meters step (issue 32): which assets and years a set of
 * meter changes moves, and writing their derived cells where the caller's states allow. Split from
 * `meters-service.ts`, which decides the steps.
 */

/** A recompute writes these: empty cells, and cells still holding what meters last wrote. */
export const autoStates: ReadonlySet<FigureState> = new Set(['fill', 'update', 'same']);

/** The assets and reporting years a set of changes moves (null: all the asset's years). */
export function affectedBy(
  changes: Iterable<MeterDocChange>,
  month: number,
  out = new Map<string, Set<number> | null>(),
): Map<string, Set<number> | null> {
  for (const change of changes) {
    if (change.kind === 'derived') continue;
    if (change.kind === 'meter') {
      out.set(change.assetId, null);
      for (const m of [change.before, change.after]) if (m) out.set(m.assetId, null);
      continue;
    }
    if (out.get(change.assetId) === null) continue;
    const years = out.get(change.assetId) ?? new Set<number>();
    for (const y of touchedYears(
      [change.before, change.after].filter((r) => r !== null),
      month,
    ))
      years.add(y);
    out.set(change.assetId, years);
  }
  return out;
}

/** Inside a step: the derived cells of `affected` written where `states` allow; the rest held. */
export function recomputeFigures(
  store: WorkspaceStore,
  meters: MeterStore,
  affected: Map<string, Set<number> | null>,
  states: ReadonlySet<FigureState>,
  idName: AssetIdName,
  accepted: { min: number; max: number },
): Omit<MeterWriteResult, 'history'> {
  const run = recomputeRun(store, meters, states, accepted);
  for (const [localId, years] of affected) run.asset(localId, years);
  return run.result(idName);
}

/** The same, inside a sliced step: `pause` between assets lets main answer other calls. */
export async function recomputeFiguresSliced(
  store: WorkspaceStore,
  meters: MeterStore,
  affected: Map<string, Set<number> | null>,
  states: ReadonlySet<FigureState>,
  idName: AssetIdName,
  accepted: { min: number; max: number },
  pause: () => Promise<void>,
): Promise<Omit<MeterWriteResult, 'history'>> {
  const run = recomputeRun(store, meters, states, accepted);
  for (const [localId, years] of affected) {
    run.asset(localId, years);
    await pause();
  }
  return run.result(idName, pause);
}

function recomputeRun(
  store: WorkspaceStore,
  meters: MeterStore,
  states: ReadonlySet<FigureState>,
  accepted: { min: number; max: number },
) {
  const month = store.entity()?.reporting_preferences.reporting_period_month ?? 12;
  const written = new Set<string>();
  const held: MeterWriteResult['held'] = [];
  const asset = (localId: string, years: Set<number> | null): void => {
    const record = store.asset(localId);
    if (!record?.current) return;
    const derived = meters.derived(localId);
    const preview = figuresOf(
      assetMeters(meters, localId, record.current),
      derived,
      month,
      years ?? undefined,
      accepted,
    );
    // Cells a reading rule holds back are not offered for "Apply meter figures" either.
    held.push(...preview.cells.filter((c) => !c.heldBack && !states.has(c.state) && c.state !== 'override'));
    // Each cell's source names the meters and readings it came from (the cell history shows it,
    // an assurer reads it): cells made from the same ones are written together.
    const groups = new Map<string, typeof preview.cells>();
    for (const cell of preview.cells) {
      // Held-back cells go through too: their records say why (figureWrites writes no value).
      if (!states.has(cell.state) && !(cell.heldBack && cell.state !== 'override')) continue;
      const key = JSON.stringify([cell.meters, cell.readings]);
      const group = groups.get(key);
      if (group) group.push(cell);
      else groups.set(key, [cell]);
    }
    for (const cells of groups.values()) {
      const { edits, records } = figureWrites(cells, derived, states);
      const first = cells[0];
      if (!first) continue;
      const source = {
        kind: 'meters' as const,
        meters: first.meters.slice(0, 10_000),
        readings: first.readings,
      };
      if (edits.length > 0) {
        store.setValues(edits, source);
        written.add(localId);
      }
      if (records.length > 0) meters.write(records, source);
    }
  };
  function result(idName: AssetIdName): Omit<MeterWriteResult, 'history'>;
  function result(
    idName: AssetIdName,
    pause: () => Promise<void>,
  ): Promise<Omit<MeterWriteResult, 'history'>>;
  function result(idName: AssetIdName, pause?: () => Promise<void>) {
    const views: AssetView[] = [];
    const add = (id: string): void => {
      const view = assetView(store, id, idName);
      if (view) views.push(view);
    };
    if (!pause) {
      for (const id of written) add(id);
      return { views, held };
    }
    // An import's 5,000 assets: their views built between slices too.
    return (async () => {
      for (const id of written) {
        add(id);
        await pause();
      }
      return { views, held };
    })();
  }
  return { asset, result };
}
