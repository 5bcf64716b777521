import { acceptedYears } from '../../shared/domain/context';
import { randomUUID } from 'node:crypto';
import type { MeterWriteResult } from '../../shared/bridge/contract';
import type { ChangeSource } from '../../shared/history/change-source';
import type { DateOrder, ImportColumn, ReadingsImport } from '../../shared/meters/import-rows';
import type {
  FigureState,
  MetersListing,
  ReadingsImportPreview,
  ReadingView,
} from '../../shared/meters/views';
import type { AssetIdName } from '../../shared/sync/asset-id-name';
import { badRequest, notFound } from '../../shared/errors';
import type { BridgeHandlers } from '../bridge/handlers';
import type { PickedFiles } from '../files/picked-files';
import type { WorkspaceStore } from '../workspace/workspace-store';
import { cellsLabel } from '../workspace/edit-handlers';
import { newMeter, newReading } from './meter-edits';
import { deleteChanges, editChanges } from './meter-changes';
import { affectedBy, autoStates, recomputeFigures } from './figures-recompute';
import { applyOffMain, applyReadings, type ApplyInput, type ApplyResult } from './readings-apply';
import type { figuresOf } from './meter-figures';
import { figuresEach, figuresOffMain, OFF_MAIN_FROM } from './portfolio-figures';
import { metersListing } from './meters-listing';
import { MeterStore, type MeterDocChange } from '../workspace/meter-store';
import { deflated, loadReadings, unpacked } from './readings-file';
import { countOf, previewReadings, runSliced, type ReadingsContent } from './readings-preview';
import type { ReadingsPlan } from './readings-plan';

type Handlers = Pick<
  BridgeHandlers,
  | 'meters.list'
  | 'meters.saveMeters'
  | 'meters.edit'
  | 'meters.addReadings'
  | 'meters.delete'
  | 'meters.previewImport'
  | 'meters.applyImport'
  | 'meters.figures'
  | 'meters.applyFigures'
  | 'meters.derived'
>;

interface Plan {
  id: string;
  storeFile: string;
  /** What was read, for a preview again; a large CSV's bytes deflated in the pool (130 MB: ~20 MB). */
  content: ReadingsContent | { packed: Promise<Buffer> };
  file: string;
  asset: string | null;
  plan: ReadingsPlan;
  /** What the file said, to plan again once the assets it names are created. */
  parsed: ReadingsImport;
}

/**
 * Meters and readings of the open workspace (issue 32): the register, edits and deletes as undo
 * steps shared with the assets' history, the readings import with its preview, and the derived
 * annual cells (`meter-figures.ts`). Its slice of the bridge: `meters.*`.
 */
export class MetersService {
  private readonly stores = new WeakMap<WorkspaceStore, MeterStore>();
  private plan: Plan | undefined;

  constructor(
    private readonly deps: {
      workspace: () => WorkspaceStore;
      files: PickedFiles;
      idName: () => AssetIdName;
      assessmentYear: number;
      /** The import's size limit when raised from the workbooks' default (a file of 1.44 M readings is 130 MB). */
      maxImportBytes?: number;
    },
  ) {}

  /** The open workspace's meters, on its store's connection (one per store). */
  private open(): { store: WorkspaceStore; meters: MeterStore } {
    const store = this.deps.workspace();
    let meters = this.stores.get(store);
    if (!meters) {
      const { access, path } = store.meterAccess;
      meters = new MeterStore(access, path);
      this.stores.set(store, meters);
    }
    return { store, meters };
  }

  private month(store: WorkspaceStore): number {
    return store.entity()?.reporting_preferences.reporting_period_month ?? 12;
  }

  /** The years the assessment takes: a bill straddling into another year creates no row there. */
  private accepted(): { min: number; max: number } {
    return acceptedYears(this.deps.assessmentYear);
  }

  /**
   * Writes meter changes and, in the same step, the derived cells of the assets and years they
   * touch (`years` null: all the asset's years). Returns what the renderer needs.
   */
  private writeStep(
    label: string,
    changes: readonly MeterDocChange[] | (() => Iterable<MeterDocChange>),
    source: ChangeSource | (() => ChangeSource),
    done?: () => void,
  ): MeterWriteResult {
    const { store, meters } = this.open();
    const result = store.step(label, () => {
      // Made inside the step when they depend on what it did first (assets an import creates, the
      // import's record whose id its source carries), and written as they are made.
      const list = typeof changes === 'function' ? changes() : changes;
      const touched = new Map<string, Set<number> | null>();
      const month = this.month(store);
      const from = typeof source === 'function' ? source() : source;
      for (const change of list) {
        affectedBy([change], month, touched);
        meters.write([change], from);
      }
      const figures = recomputeFigures(
        store,
        meters,
        touched,
        autoStates,
        this.deps.idName(),
        this.accepted(),
      );
      done?.();
      return figures;
    });
    return { ...result, history: store.historyState() };
  }

  private list(assetId: string | undefined): MetersListing & { truncated: boolean } {
    const { meters } = this.open();
    const period = { year: this.deps.assessmentYear - 1, month: this.month(this.open().store) };
    return metersListing(meters, assetId, period);
  }

  private async preview(
    args: { fileId: string } | { planId: string },
    mapping: Partial<Record<ImportColumn, string>> | undefined,
    dateOrder: DateOrder | undefined,
    chosenAsset: string | undefined,
  ): Promise<ReadingsImportPreview> {
    const { store, meters } = this.open();
    let content: ReadingsContent;
    let file: string;
    if ('planId' in args) {
      if (this.plan?.id !== args.planId) throw notFound('That preview is gone: choose the file again.');
      const { content: kept, file: named, asset } = this.plan;
      [file, content] = [named, 'packed' in kept ? { csv: await unpacked(kept.packed) } : kept];
      chosenAsset ??= asset ?? undefined;
    } else {
      file = this.deps.files.name(args.fileId);
      try {
        content = await loadReadings(this.deps.files.path(args.fileId), file, this.deps.maxImportBytes);
      } finally {
        // What was read is kept with the preview: an uploaded copy is no longer needed.
        await this.deps.files.used(args.fileId);
      }
    }
    const id = randomUUID();
    const read = await runSliced(
      previewReadings({ store, meters, content, file, mapping, dateOrder, chosenAsset, id }),
    );
    // Deflated in zlib's pool once the preview is made, not waited for (a preview again waits):
    // the bytes go once deflated. The catch: a preview let go before it is done asks nothing.
    const packing = 'csv' in content ? deflated(content.csv) : null;
    packing?.catch(() => {});
    this.plan = {
      id,
      storeFile: store.file,
      content: packing ? { packed: packing } : content,
      file,
      plan: read.plan,
      asset: chosenAsset ?? null,
      parsed: read.parsed,
    };
    return read.view;
  }

  /**
   * The preview's plan, taken for its apply: the file's text stays behind (130 MB for 1.44 M
   * readings, not held while they are written, nor counted in the heap the collector sizes from).
   */
  private takePlan(planId: string, storeFile: string): Pick<Plan, 'parsed' | 'plan' | 'file'> {
    const plan = this.plan;
    if (plan?.id !== planId || plan.storeFile !== storeFile)
      throw notFound('That preview is gone: choose the file again.');
    return { parsed: plan.parsed, plan: plan.plan, file: plan.file };
  }

  private async applyImport(planId: string, createAssets: boolean): Promise<ApplyResult & MeterWriteResult> {
    const { store, meters } = this.open();
    // Written by a worker thread (readings-apply.ts) unless no other connection can write as this one.
    // No local holds the plan: main lets it go while the worker writes its own copy.
    const result = await (store.writableElsewhere
      ? applyOffMain(store, this.applyInput(planId, store.file, createAssets))
      : applyReadings(store, meters, this.applyInput(planId, store.file, createAssets)));
    return { ...result, history: store.historyState() };
  }

  private applyInput(planId: string, storeFile: string, createAssets: boolean): ApplyInput {
    const { parsed, plan, file } = this.takePlan(planId, storeFile);
    if (plan.readings.length === 0 && (createAssets ? plan.unknownAssets : []).length === 0)
      throw badRequest(`${file}: no valid reading to add.`);
    this.plan = undefined;
    return { parsed, plan, file, createAssets, idName: this.deps.idName(), accepted: this.accepted() };
  }

  readonly handlers: Handlers = {
    'meters.list': ({ assetId }) => this.list(assetId),
    'meters.saveMeters': ({ meters: inputs }) => {
      const { store, meters } = this.open();
      const changes = inputs.map((input): MeterDocChange => {
        if (!store.asset(input.assetId)?.current)
          throw notFound(`No asset ${input.assetId} in the workspace`);
        const before = input.id ? (meters.meter(input.id) ?? null) : null;
        const after = newMeter(input);
        return { kind: 'meter', id: after.id, assetId: after.assetId, before, after };
      });
      return this.writeStep(
        changes.every((c) => c.before === null)
          ? `adding ${countOf(changes.length, 'meter')}`
          : `edit of ${countOf(changes.length, 'meter')}`,
        changes,
        { kind: 'typed' },
      );
    },
    'meters.edit': (args) => {
      const cells = (args.meters?.length ?? 0) + (args.readings?.length ?? 0);
      if (cells === 0) throw badRequest('No cell to change.');
      const source = args.source ?? 'typed';
      const changes = editChanges(this.open().meters, args);
      return this.writeStep(cellsLabel(source, cells, 'meter cell'), changes, { kind: source });
    },
    'meters.addReadings': ({ readings: inputs }) => {
      const { meters } = this.open();
      const changes = inputs.map((input): MeterDocChange => {
        const meter = meters.meter(input.meterId);
        if (!meter) throw notFound(`No meter ${input.meterId} in the workspace`);
        const after = newReading(input);
        return { kind: 'reading', id: after.id, assetId: meter.assetId, before: null, after };
      });
      return this.writeStep(`adding ${countOf(changes.length, 'reading')}`, changes, { kind: 'typed' });
    },
    'meters.delete': ({ meterIds = [], readingIds = [] }) => {
      if (meterIds.length + readingIds.length === 0)
        throw badRequest('Name the meters or readings to delete.');
      const changes = deleteChanges(this.open().meters, { meterIds, readingIds });
      if (changes.length === 0) throw notFound('None of those meters or readings is in the workspace.');
      const what =
        meterIds.length > 0 ? countOf(meterIds.length, 'meter') : countOf(changes.length, 'reading');
      return this.writeStep(`deleting ${what}`, changes, { kind: 'typed' });
    },
    'meters.previewImport': (args) =>
      this.preview(
        'fileId' in args ? { fileId: args.fileId } : { planId: args.planId },
        args.mapping,
        args.dateOrder,
        args.asset,
      ),
    'meters.applyImport': ({ planId, createAssets }) => this.applyImport(planId, createAssets ?? false),
    'meters.figures': async ({ assetIds, years }) => {
      const { store, meters } = this.open();
      const request = { assetIds, years, month: this.month(store), accepted: this.accepted() };
      if (assetIds.length >= OFF_MAIN_FROM && store.writableElsewhere) {
        // A portfolio's figures take seconds: read by a worker thread, main left to answer.
        const figures = await figuresOffMain(store.file, request);
        if (this.deps.workspace() !== store) throw notFound('The workspace changed: ask again.');
        return figures;
      }
      const out: ReturnType<typeof figuresOf> = { cells: [], warnings: [] };
      let slice = performance.now();
      for (const preview of figuresEach(store, meters, request)) {
        out.cells.push(...preview.cells);
        out.warnings.push(...preview.warnings);
        // A few assets' figures: main answers other calls between slices of ~10 ms all the same.
        if (performance.now() - slice > 10) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          slice = performance.now();
          if (this.deps.workspace() !== store) throw notFound('The workspace changed: ask again.');
        }
      }
      return out;
    },
    'meters.applyFigures': ({ assetIds, years, replaceTyped }) => {
      const { store, meters } = this.open();
      const states = new Set<FigureState>(autoStates);
      if (replaceTyped) states.add('typed');
      const affected = new Map(assetIds.map((id) => [id, years ? new Set(years) : null] as const));
      const result = store.step('applying meter figures', () =>
        recomputeFigures(store, meters, affected, states, this.deps.idName(), this.accepted()),
      );
      return { ...result, history: store.historyState() };
    },
    'meters.derived': ({ assetIds }) => {
      const { meters } = this.open();
      const records = assetIds
        ? assetIds.flatMap((id) => [...meters.derived(id).values()])
        : meters.allDerived();
      return records.map(
        ({ localId, year, field, value, text, meters: ids, readings, estimatedShare, heldBack }) => ({
          localId,
          year,
          field,
          value,
          text,
          meters: ids,
          readings,
          estimatedShare: estimatedShare ?? null,
          heldBack: heldBack ?? null,
        }),
      );
    },
  };
}

export type { ReadingView };
