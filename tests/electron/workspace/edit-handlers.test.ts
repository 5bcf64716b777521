/**
 * `workspace.edit` as the bridge calls it: one labelled step, labelled in main from what the hand
 * did, answered with the views and main's history; and a keypress reads its asset's row once and
 * parses its document once (issue 35's measured line), counted on the real statements and the real
 * JSON.parse.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Asset } from '../../../shared/domain';
import { specIdName } from '../../../shared/sync/asset-id-name';
import { editHandlers } from '../../../electron/workspace/edit-handlers';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { newAsset } from '../../../support/sync-harness';
import { RemoteMerge } from '../../../electron/sync/remote-merge';

function remote(id: number): Asset {
  return {
    ...(newAsset(id) as unknown as Asset),
    service_asset_id: id,
    partners_id: null,
    certifications: [],
    _outliers: [],
  } as Asset;
}

const statements: string[] = [];
let store: WorkspaceStore | undefined;

function open(): WorkspaceStore {
  const file = join(mkdtempSync(join(tmpdir(), 'asset-desk-edit-')), 'w.sqlite');
  store = WorkspaceStore.open(file, { onStatement: (text) => statements.push(text) });
  return store;
}

afterEach(() => store?.close());

/** Runs `fn` counting the statements that read an asset's row and the parses of these texts. */
function counted<T>(
  texts: readonly string[],
  fn: () => T,
): { result: T; rowReads: number; parses: number[] } {
  statements.length = 0;
  const parses = texts.map(() => 0);
  const parse = JSON.parse;
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    const at = texts.indexOf(text);
    if (at >= 0) parses[at]!++;
    return parse(text, reviver) as unknown;
  }) as typeof JSON.parse;
  try {
    const result = fn();
    // The history's id of an asset (`-rowid`, history-docs.ts) is read from the key's index
    // alone, not the row: not a row read.
    const rowReads = statements.filter(
      (s) =>
        /^\s*SELECT\b[\s\S]*\bFROM assets\b/i.test(s) &&
        !/^SELECT rowid AS n FROM assets WHERE local_id = \?$/.test(s),
    ).length;
    return { result, rowReads, parses };
  } finally {
    JSON.parse = parse;
  }
}

/** The asset's two documents as its row stores them (read outside the count). */
function texts(s: WorkspaceStore, localId: string): { base: string; current: string } {
  const record = s.asset(localId)!;
  return { base: JSON.stringify(record.base), current: JSON.stringify(record.current) };
}

describe('workspace.edit', () => {
  it('reads the row once and parses the document once per keypress', async () => {
    const s = open();
    new RemoteMerge(s).applyRemote(remote(701));
    const localId = s.assetByServiceId(701)!.localId;
    const handlers = editHandlers(
      () => s,
      () => specIdName,
    );
    // The first keypress on a pulled asset: its copy is the service's, one text.
    const first = texts(s, localId);
    expect(first.base).toBe(first.current);
    const one = counted([first.current], () =>
      handlers['workspace.edit']({ edits: [{ localId, path: 'city', value: 'Leiden' }] }),
    );
    const answer = await one.result;
    expect(answer.views[0]).toMatchObject({ status: 'modified', changedPaths: ['city'] });
    expect(one.rowReads).toBe(1);
    expect(one.parses).toEqual([1]);

    // The next keypress: the base and the analyst's copy differ; each is parsed once.
    const next = texts(s, localId);
    const two = counted([next.base, next.current], () =>
      handlers['workspace.edit']({ edits: [{ localId, path: 'address', value: 'Kade 1' }] }),
    );
    expect((await two.result).views[0]!.doc).toMatchObject({ city: 'Leiden', address: 'Kade 1' });
    expect(two.rowReads).toBe(1);
    expect(two.parses).toEqual([1, 1]);
  });

  it('labels the step in main from what the hand did and answers the history', async () => {
    const s = open();
    const a = s.step('adding an asset', () => s.createAsset(newAsset(1)));
    const handlers = editHandlers(
      () => s,
      () => specIdName,
    );
    const pasted = await handlers['workspace.edit']({
      edits: [
        { localId: a.localId, path: 'city', value: 'Delft' },
        { localId: a.localId, path: 'address', value: 'Markt 1' },
      ],
      source: 'paste',
    });
    expect(pasted.history).toEqual({ undo: 'paste of 2 cells', redo: null });
    const typed = await handlers['workspace.edit']({
      edits: [{ localId: a.localId, path: 'city', value: 'Ede' }],
    });
    expect(typed.history).toEqual({ undo: 'edit of 1 cell', redo: null });
    const named = await handlers['workspace.edit']({
      edits: [{ localId: a.localId, path: 'annual_data/2020', value: true }],
      label: 'add year 2020',
    });
    expect(named.history.undo).toBe('add year 2020');
    const created = await handlers['workspace.createAssets']({
      rows: [{ fields: {}, edits: [] }],
      edits: [],
    });
    expect(created.history.undo).toBe('adding an asset');
    const grown = await handlers['workspace.createAssets']({
      rows: [{ fields: { name: 'New' }, edits: [{ path: 'city', value: 'Ede' }] }],
      edits: [{ localId: a.localId, path: 'city', value: 'Breda' }],
      source: 'paste',
    });
    expect(grown.history).toEqual({ undo: 'paste of 3 cells', redo: null });
    const undone = await handlers['workspace.undo']({});
    expect(undone.history).toEqual({ undo: 'adding an asset', redo: 'paste of 3 cells' });
  });
});
