/** The entity picker's offline copy: the last list the service gave a connection (no secrets in it). */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { entitySchema, type Entity } from '../../shared/domain';
import { connectionFolder } from '../storage/paths';

const fileName = 'entities.json';

export async function saveEntityCache(
  dataDir: string,
  connectionId: string,
  list: readonly Entity[],
): Promise<void> {
  const folder = connectionFolder(dataDir, connectionId);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(join(folder, fileName), JSON.stringify(list), { mode: 0o600 });
}

/** The cached list, or none when there is no cache or it cannot be read as entities. */
export async function readEntityCache(dataDir: string, connectionId: string): Promise<Entity[]> {
  try {
    const text = await readFile(join(connectionFolder(dataDir, connectionId), fileName), 'utf8');
    const parsed = z.array(entitySchema).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
