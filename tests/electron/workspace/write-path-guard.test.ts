/**
 * No code but the write path writes the workspace's documents (issue 35): every change then passes
 * one place that keeps its images for undo and tells the change recorder its source.
 *
 * "The document" is, per kind:
 * - an asset: its row's existence (INSERT INTO / DELETE FROM `assets`) and the analyst's copy, the
 *   columns `local` and `deleted` (`current` is computed from them and `base`; `base` itself is
 *   written with them only when the service's copy changes, through the write path's `service`).
 *   The service's columns beside them (`base` alone, `server_validations`, `outliers`, `in_flight`,
 *   `sent`, `remote_deleted`, `not_found`) and the outbox are the sync ledger's.
 * - a portfolio answer: its whole `response_values` row.
 * - the history itself: `journal` and `steps`.
 *
 * The schema's migrations (which create and reshape those tables) are allowed too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '../../..');

/** The write path's modules, and the migrators. */
const allowed = new Set([
  'electron/workspace/write-path.ts',
  'electron/workspace/asset-document.ts',
  'electron/workspace/answer-document.ts',
  'electron/workspace/history.ts',
  'electron/workspace/migrations.ts',
  'electron/workspace/migrations-responses.ts',
]);

const tables = '(?:assets|response_values|journal|steps)\\b';
const writes: RegExp[] = [
  new RegExp(`\\b(?:INSERT(?:\\s+OR\\s+\\w+)?|REPLACE)\\s+INTO\\s+${tables}`, 'i'),
  new RegExp(`\\bDELETE\\s+FROM\\s+${tables}`, 'i'),
  /\bUPDATE\s+(?:OR\s+\w+\s+)?(?:response_values|journal|steps)\b/i,
  // An update of `assets` that sets the analyst's copy (`remote_deleted` is not `deleted`).
  /\bUPDATE\s+(?:OR\s+\w+\s+)?assets\s+SET\b[^;`'"]*?(?<![\w.])(?:local|deleted)\s*=/i,
];

/** The lines of `text` that write a document. */
function documentWrites(text: string): string[] {
  // Statements may span lines in a template literal: judge each statement's text joined up.
  const joined = text.replace(/\s*\n\s*/g, ' ');
  return writes.flatMap((pattern) => {
    const global = new RegExp(pattern.source, 'gi');
    return [...joined.matchAll(global)].map((match) => match[0]);
  });
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the one write path', () => {
  it('tells a document write from the service columns beside it', () => {
    expect(documentWrites("sql('UPDATE assets SET local = ?, deleted = 0 WHERE local_id = ?')")).toHaveLength(
      1,
    );
    expect(documentWrites('`UPDATE assets SET sent = NULL,\n  deleted = ? WHERE x`')).toHaveLength(1);
    expect(documentWrites("'DELETE FROM assets WHERE local_id = ?'")).toHaveLength(1);
    expect(documentWrites("'INSERT INTO journal (at) VALUES (?)'")).toHaveLength(1);
    expect(documentWrites("'UPDATE response_values SET unavailable = ?'")).toHaveLength(1);
    expect(documentWrites("'UPDATE assets SET remote_deleted = 1 WHERE local_id = ?'")).toEqual([]);
    expect(documentWrites("'UPDATE assets SET in_flight = NULL, sent = NULL WHERE in_flight = ?'")).toEqual(
      [],
    );
    expect(documentWrites("'INSERT INTO response_values_v2 SELECT 1'")).toEqual([]);
  });

  it('is the only code under electron/ that writes assets, answers, the journal or the steps', () => {
    const offenders = sources(join(root, 'electron')).flatMap((file) => {
      const path = relative(root, file).split('\\').join('/');
      if (allowed.has(path)) return [];
      return documentWrites(readFileSync(file, 'utf8')).map((write) => `${path}: ${write}`);
    });
    expect(offenders).toEqual([]);
  });
});
