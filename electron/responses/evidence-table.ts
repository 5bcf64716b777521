import type Database from 'better-sqlite3';
import type { EvidenceItemView } from '../../shared/responses/types';

const keyOf = (item: EvidenceItemView): string => `${item.answerName}#${item.itemNumber ?? 0}`;

/**
 * The evidence items of the workspace's responses (`response_evidence`), by answer and item number;
 * old uploads (kept from an earlier version) by `legacy:<id>`.
 */
export class EvidenceTable {
  constructor(private readonly db: Database.Database) {}

  list(responseId: number): EvidenceItemView[] {
    return (
      this.db
        .prepare('SELECT json FROM response_evidence WHERE response_id = ? ORDER BY key')
        .all(responseId) as Array<{ json: string }>
    )
      .map((row) => JSON.parse(row.json) as EvidenceItemView)
      .sort((a, b) => a.answerName.localeCompare(b.answerName) || (a.itemNumber ?? 0) - (b.itemNumber ?? 0));
  }

  count(responseId: number): number {
    return (
      this.db
        .prepare('SELECT COUNT(*) AS n FROM response_evidence WHERE response_id = ?')
        .get(responseId) as {
        n: number;
      }
    ).n;
  }

  save(responseId: number, item: EvidenceItemView): void {
    this.db
      .prepare(
        'INSERT INTO response_evidence (response_id, key, json) VALUES (?, ?, ?) ON CONFLICT(response_id, key) DO UPDATE SET json = excluded.json',
      )
      .run(responseId, keyOf(item), JSON.stringify(item));
  }

  /**
   * The service's items of one evidence answer replace the stored ones; what only this app knows (the
   * link a file was posted with, its report link) is kept. Old uploads are never touched.
   */
  replace(responseId: number, answerName: string, items: readonly EvidenceItemView[]): void {
    const known = new Map(
      this.list(responseId)
        .filter((e) => e.answerName === answerName && e.itemNumber !== null)
        .map((e) => [keyOf(e), e]),
    );
    this.db
      .prepare("DELETE FROM response_evidence WHERE response_id = ? AND key LIKE ? ESCAPE '\\'")
      .run(responseId, `${answerName.replace(/[\\%_]/g, (c) => `\\${c}`)}#%`);
    for (const item of items) {
      const before = known.get(keyOf(item));
      this.save(responseId, {
        ...item,
        url: item.url ?? before?.url ?? null,
        reportUrl: item.reportUrl ?? before?.reportUrl ?? null,
      });
    }
  }
}
