import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** One folder per connection; the id is hashed so a custom connection's id never shapes a path. */
export function connectionFolder(dataDir: string, connectionId: string): string {
  const safe = createHash('sha256').update(connectionId).digest('hex').slice(0, 16);
  return join(dataDir, 'workspaces', safe);
}
