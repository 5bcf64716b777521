/**
 * A workspace file that cannot be opened or read (issue 29: a header-corrupted or truncated file, or
 * a read-only folder, made the host exit at start; corruption in the middle made edits fail as
 * "internal"). The app starts anyway and says which workspace and why; the file is never written
 * to: a rebuild moves it aside under a new name, as it is, and the workspace is pulled again from
 * the service. What it loses is said only as far as the damaged file still shows it.
 */
import { existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { WorkspaceProblem } from '../../shared/bridge/types';
import { assetColumns, type AssetRow } from './asset-record';

const damagedCodes = /^SQLITE_(NOTADB|CORRUPT)/;
const unwritableCodes = /^(SQLITE_(READONLY|CANTOPEN|PERM|AUTH)|EACCES|EPERM|EROFS)/;

/** What kind of trouble `error` is for a workspace file, or undefined for anything else. */
export function damageOf(error: unknown): WorkspaceProblem['kind'] | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (damagedCodes.test(code)) return 'damaged';
  if (unwritableCodes.test(code)) return 'unwritable';
  return undefined;
}

/**
 * Counts the changes not yet sent among a file's rows: the sync's planner's word
 * (electron/sync/pending-work.ts `unsentCount`), given to the workspace by the composition root, as
 * the workspace does not plan the sync's work (issue 35).
 */
export type UnsentCounter = (rows: Iterable<AssetRow>, conflicted: ReadonlySet<string>) => number;

/** Changes not yet sent, as far as the damaged file can still be read (read only); null if not. */
export function unsentIn(file: string, countUnsent: UnsentCounter): number | null {
  if (!existsSync(file)) return null;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const conflicted = new Set(
      (db.prepare('SELECT DISTINCT local_id FROM conflicts').all() as Array<{ local_id: string }>).map(
        (row) => row.local_id,
      ),
    );
    return countUnsent(
      db.prepare(`SELECT ${assetColumns} FROM assets ORDER BY rowid`).iterate() as IterableIterator<AssetRow>,
      conflicted,
    );
  } catch {
    return null;
  } finally {
    try {
      db?.close();
    } catch {
      /* a file too damaged to close cleanly is still left as it was */
    }
  }
}

export function describeDamage(opts: {
  entityId: number;
  entityName: string | null;
  file: string;
  kind: WorkspaceProblem['kind'];
  error: unknown;
  countUnsent: UnsentCounter;
}): WorkspaceProblem {
  const { entityId, entityName, file, kind } = opts;
  const which = entityName
    ? `The workspace of "${entityName}" (entity ${entityId})`
    : `The workspace of entity ${entityId}`;
  const why = opts.error instanceof Error ? opts.error.message : String(opts.error);
  if (kind === 'unwritable') {
    return {
      entityId,
      entityName,
      kind,
      file,
      unsent: null,
      canRebuild: false,
      message:
        `${which} cannot be opened: its folder ${dirname(file)} or its file refuses to be written (${why}). ` +
        'Nothing in it was changed or lost. Make the folder writable for your user, then open the entity again.',
    };
  }
  const unsent = unsentIn(file, opts.countUnsent);
  const loss =
    unsent === null
      ? 'Whether it held changes not yet sent cannot be read from the damaged file.'
      : unsent === 0
        ? 'It had no changes waiting to be sent, so a rebuild loses nothing.'
        : `It holds ${unsent} ${unsent === 1 ? 'change' : 'changes'} not yet sent, which a rebuild cannot bring back.`;
  return {
    entityId,
    entityName,
    kind,
    file,
    unsent,
    canRebuild: true,
    message:
      `${which} cannot be opened: its file is damaged (${why}). It is left untouched at ${file}. ${loss} ` +
      'Rebuild it from the service: the damaged file is kept aside under a new name and the assets are pulled again. Other entities are not affected.',
  };
}

/** Moves the file (and SQLite's -wal and -shm beside it) aside, unchanged; the new name. */
export function setAside(file: string, now = new Date()): string {
  const aside = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  return aside;
}
