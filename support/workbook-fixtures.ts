import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Asset } from '../shared/domain';
import type { AssetDoc } from '../shared/sync/asset-doc';
import type { AssetRecord } from '../electron/workspace/asset-record';
import type { WorkspaceStore } from '../electron/workspace/workspace-store';
import { newAsset, tempWorkspace } from './sync-harness';
import { RemoteMerge } from '../electron/sync/remote-merge';

export const tmpDir = (): string => mkdtempSync(join(tmpdir(), 'asset-desk-wb-'));

/** A workspace record in step with the service (`base` = `current` = `doc`), as an import's preview reads it. */
export function inStepRecord(
  localId: string,
  serviceAssetId: number,
  doc: AssetDoc,
  partnersId: number | null = null,
): AssetRecord {
  return {
    localId,
    serviceAssetId,
    partnersId,
    base: doc,
    current: doc,
    serverValidations: null,
    outliers: [],
    remoteDeleted: false,
    notFound: false,
    inFlight: null,
    updatedAt: 0,
  };
}

/** An asset as the service returns it, with typed values of every kind the workbook carries. */
function remoteAsset(i: number, id: number): Asset {
  const doc = newAsset(i, 2);
  return {
    service_asset_id: id,
    partners_id: 7000 + i,
    name: `Remote ${i}`,
    country: 'NL',
    state_province: 'Noord-Holland',
    city: 'Amsterdam',
    address: i === 1 ? '=HYPERLINK("http://evil.example","click")' : `${i} Damrak`,
    lat: 52.37,
    lng: 4.89,
    construction_year: 1990 + i,
    ownership: 75.5,
    ownership_from: '2019-04-01',
    ownership_to: null,
    property_type_code: 'OCHI',
    gav: 12.25,
    size: 1000 + i,
    certifications: [{ id: 300 + i, certification_id: 3, level: 'Gold', size: 500, year: 2020 }],
    annual_data: (doc.annual_data ?? []).map((entry) => ({
      ...(entry as Record<string, unknown>),
      year: Number(entry.year),
      ncmr_status: 'Standing Investment',
      en_data_from: `${String(entry.year)}-01-01`,
      en_ren_ofs_claim: 'BUN',
    })),
    _outliers: [],
    created_at: null,
    updated_at: null,
  };
}

/** A workspace with `synced` assets known to the service (ids 101...) and `local` unsent ones. */
export function seededWorkspace(synced = 4, local = 3): { store: WorkspaceStore; file: string } {
  const ws = tempWorkspace();
  for (let i = 0; i < synced; i++) new RemoteMerge(ws.store).applyRemote(remoteAsset(i, 101 + i));
  for (let i = 0; i < local; i++) {
    const doc: AssetDoc = {
      ...newAsset(100 + i, 2),
      name: i === 0 ? '+SUM(A1:A9)' : `Local ${i}`,
      certifications: [{ _key: `k${i}`, certification_id: 1, level: 'A', size: 200, year: 2021 }],
    };
    ws.store.createAsset(doc);
  }
  return ws;
}

/** The workspace's documents, comparable across an import and its undo. */
export function snapshot(store: WorkspaceStore): Array<{ localId: string; current: unknown }> {
  return store.listAssets().map((r) => ({ localId: r.localId, current: r.current }));
}
