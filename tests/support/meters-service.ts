/**
 * The meters service over a workspace as the app makes it (its picked files, the service's id name,
 * the assessment year 2025), and a file picked as the Import dialog picks it: for tests, and for
 * the child process a test kills mid-import (so nothing here imports the test runner).
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { PickedFiles } from '../../electron/files/picked-files';
import { MetersService } from '../../electron/meters/meters-service';
import type { WorkspaceStore } from '../../electron/workspace/workspace-store';

export function metersServiceOver(store: WorkspaceStore) {
  const files = new PickedFiles(undefined);
  const service = new MetersService({
    workspace: () => store,
    files,
    idName: () => 'service_asset_id',
    assessmentYear: 2025,
  });
  return {
    service,
    files,
    /** The file at `path` picked (under `name`, by default its own): its file id. */
    pickPath: (path: string, name = basename(path)) =>
      files.add(path, name, statSync(path).size, async () => undefined).fileId,
  };
}
