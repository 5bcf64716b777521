/**
 * What the meters' tests over a real workspace file start from: the Tower asset in a workspace, the
 * meters service over it (its picked files, the service's id name, the assessment year 2025), and a
 * readings file picked beside the workspace file as the Import dialog would pick it.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { WorkspaceStore } from '../../electron/workspace/workspace-store';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import { tempWorkspace } from '../../support/sync-harness';
import { metersServiceOver } from './meters-service';

type AnnualRows = NonNullable<AssetDoc['annual_data']>;

/** An office tower in Utrecht of 1,000 m² with these annual rows (by default 2024's floor area). */
export function towerDoc(annual: AnnualRows = [{ year: 2024, en_tot_wf: 1_000 }], name = 'Tower'): AssetDoc {
  return {
    name,
    country: 'NL',
    city: 'Utrecht',
    ownership: 100,
    property_type_code: 'OCHI',
    size: 1_000,
    annual_data: annual,
  };
}

export function metersRig(opts: {
  /** A new workspace file of this name, or an open store and its file. */
  workspace: string | { store: WorkspaceStore; file: string };
  /** The Tower's annual rows. */
  annual?: AnnualRows;
}) {
  const { store, file } = typeof opts.workspace === 'string' ? tempWorkspace(opts.workspace) : opts.workspace;
  const asset = store.step('adding an asset', () => store.createAsset(towerDoc(opts.annual)));
  const { service, files } = metersServiceOver(store);
  const localId = asset.localId;
  return {
    store,
    file,
    asset,
    localId,
    service,
    h: service.handlers,
    /** A readings file of `name` written beside the workspace file and picked: its file id. */
    pick(name: string, text: string): string {
      const path = join(dirname(file), name);
      writeFileSync(path, text);
      return files.add(path, name, text.length, async () => undefined).fileId;
    },
    /** The Tower's annual row of `year` as the workspace holds it now. */
    row(year: number): Record<string, unknown> | undefined {
      const rows = store.asset(localId)?.current?.['annual_data'] as
        Array<Record<string, unknown>> | undefined;
      return rows?.find((r) => r['year'] === year);
    },
  };
}
