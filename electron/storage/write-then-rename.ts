import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file the user chose by writing a temporary file beside it and renaming it over the
 * target once whole: a failure half-way (a full disk, a crash) never leaves a truncated file where
 * the user's was.
 */
export async function writeThenRename(file: string, write: (tmp: string) => Promise<void>): Promise<void> {
  // Hidden, beside the target (same disk, so the rename is atomic), and with its extension, for
  // writers that choose the format by it.
  const tmp = join(dirname(file), `.part-${randomUUID().slice(0, 8)}-${basename(file)}`);
  try {
    await write(tmp);
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
