/**
 * Files the user chose in main's own dialog. The path never leaves main: the renderer holds an id,
 * and only a file chosen here can be read for it. Its slice of the bridge: `files.pick`.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { badRequest, notFound } from '../bridge/errors';
import type { BridgeHandlers } from '../bridge/handlers';

/** The host's open-file dialog (Electron: dialog.showOpenDialog); undefined when cancelled. */
export type PickFile = (request: {
  purpose: 'workbook';
  extensions: string[];
}) => Promise<string | undefined>;

const extensions: Record<'workbook', string[]> = { workbook: ['xlsx', 'csv'] };

export class PickedFiles {
  private readonly paths = new Map<string, string>();

  constructor(private readonly pickFile: PickFile | undefined) {}

  /** The chosen file's path, or a sentence asking to choose it again. */
  path(fileId: string): string {
    const file = this.paths.get(fileId);
    if (file === undefined) throw notFound('That file is no longer chosen: pick it again.');
    return file;
  }

  readonly handlers: Pick<BridgeHandlers, 'files.pick'> = {
    'files.pick': async ({ purpose }) => {
      if (!this.pickFile) throw badRequest('This host has no file dialog.');
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
