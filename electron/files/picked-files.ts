/**
 * Files the user chose in main's own dialog. The path never leaves main: the renderer holds an id,
 * and only a file chosen here (or uploaded to the browser host, `add`) can be read for it. Its slice
 * of the bridge: `files.pick`.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { PickedFile } from '../../shared/bridge/types';
import { badRequest, notFound } from '../../shared/errors';
import type { BridgeHandlers } from '../bridge/handlers';

/** The host's open-file dialog (Electron: dialog.showOpenDialog); undefined when cancelled. */
export type PickFile = (request: {
  purpose: 'workbook' | 'readings';
  extensions: string[];
}) => Promise<string | undefined>;

/** Readings: a flat CSV, or Portfolio Manager's XML (electron/meters/). */
const extensions: Record<'workbook' | 'readings', string[]> = {
  workbook: ['xlsx', 'csv'],
  readings: ['csv', 'txt', 'xml'],
};

export class PickedFiles {
  private readonly paths = new Map<string, string>();
  /** The names the user knows them by (an upload's path holds a random name). */
  private readonly names = new Map<string, string>();
  /** How to delete a file that is a copy made for us (an upload), once it has been read. */
  private readonly discards = new Map<string, () => Promise<void>>();

  constructor(private readonly pickFile: PickFile | undefined) {}

  /** A file chosen another way (the browser host's upload), under a new id; `discard` deletes it. */
  add(path: string, name: string, size: number, discard: () => Promise<void>): PickedFile {
    const fileId = randomUUID();
    this.paths.set(fileId, path);
    this.names.set(fileId, name);
    this.discards.set(fileId, discard);
    return { fileId, name, size };
  }

  /**
   * The file has been read: an upload is deleted and its id forgotten (the page uploads again to
   * read it again); a file the user chose in a dialog is theirs, and stays chosen.
   */
  async used(fileId: string): Promise<void> {
    const discard = this.discards.get(fileId);
    if (!discard) return;
    this.discards.delete(fileId);
    this.paths.delete(fileId);
    this.names.delete(fileId);
    await discard();
  }

  /** The chosen file's name as the user chose it. */
  name(fileId: string): string {
    return this.names.get(fileId) ?? basename(this.path(fileId));
  }

  /** The chosen file's path, or a sentence asking to choose it again. */
  path(fileId: string): string {
    const file = this.paths.get(fileId);
    if (file === undefined) throw notFound('That file is no longer chosen: pick it again.');
    return file;
  }

  readonly handlers: Pick<BridgeHandlers, 'files.pick'> = {
    'files.pick': async ({ purpose }) => {
      if (!this.pickFile) throw badRequest('This host has no file dialog: choose the file in the page.');
      const path = await this.pickFile({ purpose, extensions: extensions[purpose] });
      if (path === undefined) return null;
      const fileId = randomUUID();
      this.paths.set(fileId, path);
      const size = await stat(path).then(
        (info) => (info.isFile() ? info.size : null),
        () => null,
      );
      return { fileId, name: basename(path), size };
    },
  };
}
