/**
 * Undo and redo over batches of edits. An entry stores each cell's value before and after, so undo
 * sends the "before" values through the same bridge call as any edit, and redo the "after" values.
 * Created assets are remembered so undo deletes them and redo creates them again (under a new local
 * id, which `remapAsset` writes through the whole history).
 */
import type { Scalar } from '../../../shared/sync/asset-doc';

export interface CellChange {
  localId: string;
  path: string;
  before: Scalar;
  after: Scalar;
}

export interface UndoEntry {
  label: string;
  changes: CellChange[];
  /** Assets this action created, with the top-level fields they were created with. */
  created: Array<{ localId: string; fields: Record<string, Scalar> }>;
  /** Assets this action deleted (undo restores them). */
  deleted: string[];
}

export class UndoStack {
  private done: UndoEntry[] = [];
  private undone: UndoEntry[] = [];

  constructor(private readonly limit = 200) {}

  push(entry: UndoEntry): void {
    if (entry.changes.length === 0 && entry.created.length === 0 && entry.deleted.length === 0) return;
    this.done.push(entry);
    if (this.done.length > this.limit) this.done.shift();
    this.undone = [];
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  peekUndo(): UndoEntry | undefined {
    return this.done[this.done.length - 1];
  }

  peekRedo(): UndoEntry | undefined {
    return this.undone[this.undone.length - 1];
  }

  /** Moves the newest entry to the redo side and returns it; the caller applies its inverse. */
  undo(): UndoEntry | undefined {
    const entry = this.done.pop();
    if (entry) this.undone.push(entry);
    return entry;
  }

  redo(): UndoEntry | undefined {
    const entry = this.undone.pop();
    if (entry) this.done.push(entry);
    return entry;
  }

  /** Puts an entry back where it was when applying it failed. */
  rollbackUndo(): void {
    const entry = this.undone.pop();
    if (entry) this.done.push(entry);
  }

  rollbackRedo(): void {
    const entry = this.done.pop();
    if (entry) this.undone.push(entry);
  }

  remapAsset(from: string, to: string): void {
    for (const entry of [...this.done, ...this.undone]) {
      for (const change of entry.changes) if (change.localId === from) change.localId = to;
      for (const created of entry.created) if (created.localId === from) created.localId = to;
      entry.deleted = entry.deleted.map((id) => (id === from ? to : id));
    }
  }

  clear(): void {
    this.done = [];
    this.undone = [];
  }

  get sizes(): { undo: number; redo: number } {
    return { undo: this.done.length, redo: this.undone.length };
  }
}

/** The edits that undo an entry's cell changes (newest first, so a cell edited twice ends at its first value). */
export function undoEdits(entry: UndoEntry): Array<{ localId: string; path: string; value: Scalar }> {
  return [...entry.changes].reverse().map((c) => ({ localId: c.localId, path: c.path, value: c.before }));
}

export function redoEdits(entry: UndoEntry): Array<{ localId: string; path: string; value: Scalar }> {
  return entry.changes.map((c) => ({ localId: c.localId, path: c.path, value: c.after }));
}
