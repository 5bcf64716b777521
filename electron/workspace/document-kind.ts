import type { DocumentRef } from './change-recorder';
import type { SqlAccess } from './store-access';

/**
 * One kind of document the write path writes (an asset, a portfolio answer; meters and readings
 * next): how its image is read for history, how it is told to the change recorder, the statements
 * that write it (handed to a write only inside the write path, see write-path.ts) and how undo puts
 * an image back. Each kind's statements live in its own module beside this one; no other code
 * writes its tables (tests/electron/workspace/write-path-guard.test.ts).
 */
export interface DocumentKind<Image, Writer> {
  readonly kind: DocumentRef['kind'];
  /** The key of its journal rows (`journal.local_id`): an asset's local id as is (older files), others prefixed. */
  journalKey(id: string): string;
  /**
   * The document's id for a journal key of this kind (`image`: the one the row restores, for keys
   * older files wrote without the whole id); undefined: not one of this kind's; null: one of its,
   * naming no document (nothing to restore).
   */
  idOfJournalKey(key: string, image: Image | null): string | null | undefined;
  /** The document's image as history keeps it, read now (null: there is none). */
  read(id: string): Image | null;
  /** What the change recorder is told of an image (an asset: its analyst's copy; an answer: its value). */
  document(image: Image | null): unknown;
  /** Its statements. */
  readonly writer: Writer;
  /** Puts an image back (undo, redo); `journal`: the row's kind and payload, to restore only what it changed. */
  restore(id: string, image: Image | null, journal: { kind: string; payload: string }): void;
}

/** Makes a kind over a store's connection (the workspace store's, or the responses store's own). */
export type DocumentKindFactory<Image, Writer> = (access: SqlAccess) => DocumentKind<Image, Writer>;
