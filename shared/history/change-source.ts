import { z } from 'zod';

/**
 * Where a change to a workspace document came from: recorded by the workspace's one write path with
 * every change (issue 31), shown in a cell's history and the audit log. Kept as a source row that
 * changes reference by id, so a file name is stored once, not on every changed cell.
 *
 * The kinds the analyst's hand makes in a grid (`typed`, `paste`, `fill`, `replace`, `clear`) carry
 * nothing more; the others say what they were made from.
 */
/** An import's record in the workspace file (electron/workspace/import-records.ts). */
export const importId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const changeSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('typed') }).strict(),
  z.object({ kind: z.literal('paste') }).strict(),
  z.object({ kind: z.literal('fill') }).strict(),
  z.object({ kind: z.literal('replace') }).strict(),
  z.object({ kind: z.literal('clear') }).strict(),
  /**
   * A workbook import: the file's name (never its path), the sheet and the cell ("F12"); `import`:
   * its record's id (electron/workspace/import-records.ts), for "Show the import" (older entries have none).
   */
  z
    .object({
      kind: z.literal('workbook'),
      file: z.string().max(255),
      sheet: z.string().max(64).optional(),
      cell: z.string().max(16).optional(),
      import: importId.optional(),
    })
    .strict(),
  /** A CSV import (assets or readings): the file's name and the 1-based row; `import` as above. */
  z
    .object({
      kind: z.literal('csv'),
      file: z.string().max(255),
      row: z.number().int().min(1).optional(),
      import: importId.optional(),
    })
    .strict(),
  /** Computed from meter readings: the meters' ids and how many readings. */
  z
    .object({
      kind: z.literal('meters'),
      meters: z.array(z.string().max(128)).max(10_000),
      readings: z.number().int().min(0),
    })
    .strict(),
  /** A pull or a batch answer: the service's `updated_at` for the asset, where it gave one. */
  z.object({ kind: z.literal('service'), updatedAt: z.string().max(64).nullable() }).strict(),
  /** A conflict resolved by the analyst. */
  z.object({ kind: z.literal('conflict'), choice: z.enum(['mine', 'theirs']) }).strict(),
  z.object({ kind: z.literal('undo') }).strict(),
  z.object({ kind: z.literal('redo') }).strict(),
  z.object({ kind: z.literal('send-anyway') }).strict(),
  /** Changes made before the workspace kept history (a migrated file's older journal). */
  z.object({ kind: z.literal('before-history') }).strict(),
]);

export type ChangeSource = z.infer<typeof changeSourceSchema>;
export type ChangeSourceKind = ChangeSource['kind'];

/** The kinds an edit from a grid may claim (the renderer says which; main never trusts more). */
export const handSourceKinds = ['typed', 'paste', 'fill', 'replace', 'clear'] as const;
export type HandSourceKind = (typeof handSourceKinds)[number];

/** One entry of a cell's history, newest first (bridge: `workspace.cellHistory`). */
export interface CellHistoryEntry {
  /** Epoch milliseconds. */
  at: number;
  value: unknown;
  previous: unknown;
  source: ChangeSource;
}
