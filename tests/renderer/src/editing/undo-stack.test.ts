import { describe, expect, it } from 'vitest';
import { redoEdits, undoEdits, UndoStack, type UndoEntry } from '../../../../renderer/src/editing/undo-stack';

const entry = (label: string, changes: UndoEntry['changes']): UndoEntry => ({
  label,
  changes,
  created: [],
  deleted: [],
});

describe('undo stack', () => {
  it('undoes to the before values and redoes to the after values', () => {
    const stack = new UndoStack();
    const paste = entry('Paste', [
      { localId: 'a', path: 'annual_data/2024/en_abs_wf', before: null, after: 1 },
      { localId: 'a', path: 'annual_data/2024/en_abs_wf', before: 1, after: 2 },
      { localId: 'b', path: 'name', before: 'Old', after: 'New' },
    ]);
    stack.push(paste);
    expect(stack.canUndo).toBe(true);
    const undone = stack.undo()!;
    // Newest first: a cell changed twice ends at its first value.
    expect(undoEdits(undone)).toEqual([
      { localId: 'b', path: 'name', value: 'Old' },
      { localId: 'a', path: 'annual_data/2024/en_abs_wf', value: 1 },
      { localId: 'a', path: 'annual_data/2024/en_abs_wf', value: null },
    ]);
    expect(stack.canRedo).toBe(true);
    expect(redoEdits(stack.redo()!).map((e) => e.value)).toEqual([1, 2, 'New']);
  });

  it('clears redo on a new action, ignores empty entries and keeps a limit', () => {
    const stack = new UndoStack(3);
    for (let i = 0; i < 5; i++)
      stack.push(entry(`e${i}`, [{ localId: 'a', path: 'x', before: i, after: i + 1 }]));
    stack.push(entry('empty', []));
    expect(stack.sizes).toEqual({ undo: 3, redo: 0 });
    stack.undo();
    expect(stack.sizes).toEqual({ undo: 2, redo: 1 });
    stack.push(entry('new', [{ localId: 'a', path: 'x', before: 0, after: 9 }]));
    expect(stack.sizes).toEqual({ undo: 3, redo: 0 });
  });

  it('rolls back an entry whose application failed', () => {
    const stack = new UndoStack();
    stack.push(entry('e', [{ localId: 'a', path: 'x', before: 1, after: 2 }]));
    stack.undo();
    stack.rollbackUndo();
    expect(stack.sizes).toEqual({ undo: 1, redo: 0 });
    stack.undo();
    stack.redo();
    stack.rollbackRedo();
    expect(stack.sizes).toEqual({ undo: 0, redo: 1 });
  });

  it('follows a recreated asset to its new local id through the whole history', () => {
    const stack = new UndoStack();
    stack.push({ label: 'Add', changes: [], created: [{ localId: 'old', fields: {} }], deleted: [] });
    stack.push(entry('Edit', [{ localId: 'old', path: 'name', before: null, after: 'N' }]));
    stack.remapAsset('old', 'new');
    expect(stack.peekUndo()!.changes[0]!.localId).toBe('new');
    stack.undo();
    expect(stack.peekUndo()!.created[0]!.localId).toBe('new');
  });
});
