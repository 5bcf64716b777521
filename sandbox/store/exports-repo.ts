import type { Db } from './db';

export interface ExportRecord {
  id: string;
  entity_id: number;
  file_name: string;
  callback_url: string;
  status: 'building' | 'ready' | 'failed';
  created_at: string;
  expires_at: number;
}

export function createExportsRepo(db: Db) {
  const st = {
    insert:
      db.prepare(`INSERT INTO exports (id, entity_id, file_name, callback_url, status, created_at, expires_at)
      VALUES (@id, @entity_id, @file_name, @callback_url, @status, @created_at, @expires_at)`),
    get: db.prepare('SELECT * FROM exports WHERE id = ?'),
    setStatus: db.prepare('UPDATE exports SET status = ?, expires_at = ? WHERE id = ?'),
    expired: db.prepare('SELECT * FROM exports WHERE expires_at <= ?'),
    delete: db.prepare('DELETE FROM exports WHERE id = ?'),
  };
  return {
    insert(rec: ExportRecord): void {
      st.insert.run(rec);
    },
    get(id: string): ExportRecord | undefined {
      return st.get.get(id) as ExportRecord | undefined;
    },
    setStatus(id: string, status: ExportRecord['status'], expiresAt: number): void {
      st.setStatus.run(status, expiresAt, id);
    },
    expired(nowMs: number): ExportRecord[] {
      return st.expired.all(nowMs) as ExportRecord[];
    },
    delete(id: string): void {
      st.delete.run(id);
    },
  };
}

export type ExportsRepo = ReturnType<typeof createExportsRepo>;
