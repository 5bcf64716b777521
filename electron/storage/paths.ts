import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** One folder per connection; the id is hashed so a custom connection's id never shapes a path. */
export function connectionFolder(dataDir: string, connectionId: string): string {
  const safe = createHash('sha256').update(connectionId).digest('hex').slice(0, 16);
  return join(dataDir, 'workspaces', safe);
}

/** The SQLite file of one connection's entity: its assets, history and portfolio responses. */
export function workspaceFile(dataDir: string, connectionId: string, entityId: number): string {
  return join(connectionFolder(dataDir, connectionId), `entity-${entityId}.sqlite`);
}
