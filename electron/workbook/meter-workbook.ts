import { meterTabs, type AssetNames } from '../../shared/meters/workbook-tabs';
import type { PlainSheet } from '../../shared/workbook/plain-sheet';
import type { WorkspaceStore } from '../workspace/workspace-store';
import { MeterStore } from '../workspace/meter-store';

/** The workspace's meters and readings as the workbook's Meters and Readings tabs (none without meters). */
export function meterSheets(store: WorkspaceStore): PlainSheet[] {
  const { access, path } = store.meterAccess;
  const meters = new MeterStore(access, path);
  const all = meters.meters();
  if (all.length === 0) return [];
  const names = new Map<string, AssetNames>();
  for (const id of new Set(all.map((m) => m.assetId))) {
    const record = store.asset(id);
    const name = record?.current?.['name'];
    names.set(id, {
      partnersId: record?.partnersId === null || record === undefined ? null : String(record.partnersId),
      name: typeof name === 'string' ? name : '',
    });
  }
  return meterTabs(all, meters.readingsOf(all.map((m) => m.id)), (id) => names.get(id));
}
