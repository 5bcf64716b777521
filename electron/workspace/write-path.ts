import type { ChangeSource } from '../../shared/history/change-source';
import { answerDocuments, type AnswerImage, type AnswerWriter } from './answer-document';
import { assetDocuments, type AssetWriter, type RowImage } from './asset-document';
import type { ChangeRecorder, DocumentChange, DocumentRef } from './change-recorder';
import type { DocumentKind } from './document-kind';
import {
  derivedDocuments,
  meterDocuments,
  readingDocuments,
  type DerivedRecord,
  type MeterDocWriter,
  type StoredReading,
} from './meter-document';
import type { Meter } from '../../shared/meters/types';
import { History, type JournalRow, type SliceHooks } from './history';
import type { SqlAccess } from './store-access';

/**
 * The one write path of the workspace's documents: every change to an asset (its analyst's copy,
 * with its annual rows, certifications and ratings) or a portfolio answer, by the analyst, by undo,
 * or by the service's copy arriving, goes through `analyst` or `service` here. Each reads the image
 * before (unless the caller read it already), writes through the kind's statements, keeps the image
 * after, journals the change (inside a step, with both images, for undo) and tells the injected
 * `ChangeRecorder` (cell history) with the change's source and time, all in the caller's
 * transaction. Without a step or a recorder nothing extra is read: a pull writes as fast as before.
 *
 * A kind is registered in `KindTypes` and `documentKinds` below (the meters add theirs).
 */
export interface KindTypes {
  asset: { image: NonNullable<RowImage>; writer: AssetWriter };
  answer: { image: AnswerImage; writer: AnswerWriter };
  meter: { image: Meter; writer: MeterDocWriter<Meter> };
  reading: { image: StoredReading; writer: MeterDocWriter<StoredReading> };
  derived: { image: DerivedRecord; writer: MeterDocWriter<DerivedRecord> };
}
export type KindName = keyof KindTypes;
type Image<K extends KindName> = KindTypes[K]['image'];
type Writer<K extends KindName> = KindTypes[K]['writer'];
type Kinds = { [K in KindName]: DocumentKind<Image<K>, Writer<K>> };

function documentKinds(access: SqlAccess): Kinds {
  return {
    asset: assetDocuments(access),
    answer: answerDocuments(access),
    meter: meterDocuments(access),
    reading: readingDocuments(access),
    derived: derivedDocuments(access),
  };
}

/** The order kinds are asked to claim a journal row: the asset claims any key (older files): last. */
const journalClaims: readonly KindName[] = ['answer', 'meter', 'reading', 'derived', 'asset'];

/**
 * A write's work: it writes through the kind's statements and returns the document's image after
 * (null: gone), or undefined when it does not know it (read after it, if anyone needs it).
 */
export type Write<K extends KindName> = (writer: Writer<K>) => Image<K> | null | undefined;

/** The analyst's copy changed: `kind` and `payload` are the journal row's. */
export interface AnalystChange<K extends KindName> {
  kind: string;
  payload?: unknown;
  source: ChangeSource;
  /** The image before, when the caller read the row already (spares a read). */
  before?: Image<K> | null;
  /** The paths the write set, when it set nothing else (a cell edit; see DocumentChange's `cells`). */
  cells?: readonly string[];
}

/**
 * The service's copy changed (a pull, a batch answer), and maybe the analyst's with it: its source is
 * the service, or the analyst's "send anyway" for an answer to what was sent with its errors.
 */
export interface ServiceChange<K extends KindName> {
  source: Extract<ChangeSource, { kind: 'service' | 'send-anyway' }>;
  before?: Image<K> | null;
}

export class WritePath {
  private readonly kinds: Kinds;
  private readonly history: History;

  constructor(
    private readonly access: SqlAccess,
    private readonly recorder?: ChangeRecorder,
  ) {
    this.kinds = documentKinds(access);
    this.history = new History(access, (row, side) => this.restore(row, side));
  }

  /**
   * The analyst's copy of a document changed (an edit, an import, a conflict resolved): journalled,
   * with its images inside a step (so undo can put it back), and recorded. Inside a transaction.
   */
  analyst<K extends KindName>(kind: K, id: string, change: AnalystChange<K>, write: Write<K>): void {
    const doc = this.kinds[kind] as DocumentKind<Image<K>, Writer<K>>;
    const inStep = this.history.recording;
    const images = inStep || this.recorder !== undefined;
    const before = change.before !== undefined ? change.before : images ? doc.read(id) : null;
    let after = write(doc.writer);
    if (after === undefined && images) after = doc.read(id);
    const told = this.recorder && this.changeOf(doc, id, before, after ?? null, change.cells);
    const at = this.access.now();
    // An analyst's cell edit keeps its history in its own journal row (history-tail.ts): asked
    // before the row is written, as a recorder that declines puts its history in order first.
    const carried = told ? this.recorder?.carry?.(told, change.source, at) : undefined;
    this.history.journal(
      doc.journalKey(id),
      change.kind,
      change.payload ?? {},
      inStep ? before : undefined,
      inStep ? (after ?? null) : undefined,
      carried ?? null,
    );
    if (told && carried === undefined) this.recorder?.record([told], change.source, at);
  }

  /**
   * The service's copy of a document changed (its base), and maybe the analyst's copy with it (a
   * three-way merge, an answer taken under edits made meanwhile): never journalled nor undone (undo
   * restores only the analyst's copy), recorded with the service as its source. Nothing extra is
   * read without a recorder.
   */
  service<K extends KindName>(kind: K, id: string, change: ServiceChange<K>, write: Write<K>): void {
    const doc = this.kinds[kind] as DocumentKind<Image<K>, Writer<K>>;
    if (this.recorder === undefined) {
      write(doc.writer);
      return;
    }
    const before = change.before !== undefined ? change.before : doc.read(id);
    const written = write(doc.writer);
    if (written !== undefined || before !== null || kind !== 'asset') {
      this.tell(doc, id, before, written === undefined ? doc.read(id) : written, change.source);
      return;
    }
    // A new asset from the service (most of a first pull): its image is read only if the recorder
    // asks for it, inside `record` (the cell history dates the arrival by the asset's id alone).
    this.recorder.record([new Arrival(doc, id)], change.source, this.access.now());
  }

  // --- history (history.ts): one labelled step per user action, undone in one transaction

  /** Runs `fn` as one labelled undo step (one transaction); a step that wrote nothing is dropped. */
  step<T>(label: string, fn: () => T): T {
    return this.history.step(label, fn);
  }

  /** One step written in slices, main answering other calls between them (history.ts). */
  slicedStep<T>(
    label: string,
    fn: (pause: () => Promise<void>) => Promise<T>,
    hooks?: SliceHooks,
  ): Promise<T> {
    return this.history.slicedStep(label, fn, hooks);
  }

  /** A step written by another connection: writes here refused meanwhile (history.ts). */
  writtenElsewhere<T>(fn: () => Promise<T>): Promise<T> {
    return this.history.writtenElsewhere(fn);
  }

  /** Whether a sliced step waits between slices (every other write is refused meanwhile). */
  get paused(): boolean {
    return this.history.paused;
  }

  undo(): ReturnType<History['undo']> {
    return this.history.undo();
  }

  redo(): ReturnType<History['redo']> {
    return this.history.redo();
  }

  historyState(): ReturnType<History['state']> {
    return this.history.state();
  }

  /** The undo step being recorded (null: none). */
  currentStep(): number | null {
    return this.history.current;
  }

  /** Undo or redo puts one journal row's image back, through the same path (source undo/redo). */
  private restore(row: JournalRow, side: 'before' | 'after'): void {
    const text = side === 'before' ? row.before : row.after;
    const source: ChangeSource = { kind: side === 'before' ? 'undo' : 'redo' };
    const image = text === null ? null : (JSON.parse(text) as unknown);
    for (const name of journalClaims) {
      const doc = this.kinds[name] as DocumentKind<unknown, unknown>;
      const id = doc.idOfJournalKey(row.local_id, image);
      if (id === undefined) continue;
      if (id === null) return;
      const before = this.recorder ? doc.read(id) : null;
      doc.restore(id, image, row);
      if (this.recorder) this.tell(doc, id, before, doc.read(id), source);
      return;
    }
  }

  private tell<I>(
    doc: DocumentKind<I, unknown>,
    id: string,
    before: I | null,
    after: I | null,
    source: ChangeSource,
  ): void {
    this.recorder?.record([this.changeOf(doc, id, before, after)], source, this.access.now());
  }

  private changeOf<I>(
    doc: DocumentKind<I, unknown>,
    id: string,
    before: I | null,
    after: I | null,
    cells?: readonly string[],
  ): DocumentChange {
    const change: DocumentChange = {
      doc: { kind: doc.kind, id },
      before: doc.document(before),
      after: doc.document(after),
    };
    if (cells) change.cells = cells;
    return change;
  }
}

/**
 * A new document from the service as the recorder is told of it: its image read only when `after`
 * is asked for. A class rather than a closure and a getter made per document: a pull tells 20,000
 * of them, and those made per call cost more than the cell history's own check (issue 31's bench).
 */
class Arrival<I> implements DocumentChange {
  readonly doc: DocumentRef;
  readonly before = null;
  private image: unknown;
  private read = false;

  constructor(
    private readonly kind: DocumentKind<I, unknown>,
    id: string,
  ) {
    this.doc = { kind: kind.kind, id };
  }

  get after(): unknown {
    if (!this.read) {
      this.read = true;
      this.image = this.kind.document(this.kind.read(this.doc.id));
    }
    return this.image;
  }
}
