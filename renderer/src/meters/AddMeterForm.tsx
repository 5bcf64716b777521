/** A new meter for an asset: its asset, name, utility, space, floor area served and unit. */
import { useState, type FormEvent } from 'react';
import { meterSpaces, meterUtilities, spaceLabels, utilityLabels } from '../../../shared/meters/types';
import type { MeterSpace, MeterUtility } from '../../../shared/meters/types';
import { useWorkspace } from '../store/workspace';
import { AssetOptions } from './AssetOptions';
import { addMeter } from './meters-edits';

export function AddMeterForm() {
  const order = useWorkspace((s) => s.order);
  const [open, setOpen] = useState(false);
  const [assetId, setAssetId] = useState('');
  const [name, setName] = useState('');
  const [utility, setUtility] = useState<MeterUtility>('electricity');
  const [space, setSpace] = useState<MeterSpace>('whole_building');
  const [area, setArea] = useState('');
  const [unit, setUnit] = useState('kWh');
  if (!open)
    return (
      <button type="button" data-testid="meters-add" onClick={() => setOpen(true)}>
        Add meter…
      </button>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const chosen = assetId || order[0];
    if (!chosen) return;
    void addMeter({
      name,
      assetId: chosen,
      utility,
      space: utility.startsWith('waste') ? 'whole_building' : space,
      areaServed: area.trim() === '' ? null : Number(area),
      unit,
      energyContent: null,
    }).then(() => setOpen(false));
  };
  return (
    <form className="add-meter" onSubmit={submit} data-testid="meters-add-form">
      <label>
        Asset{' '}
        <select value={assetId} onChange={(e) => setAssetId(e.target.value)}>
          <AssetOptions />
        </select>
      </label>
      <label>
        Name <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Utility{' '}
        <select value={utility} onChange={(e) => setUtility(e.target.value as MeterUtility)}>
          {meterUtilities.map((u) => (
            <option key={u} value={u}>
              {utilityLabels[u]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Space{' '}
        <select value={space} onChange={(e) => setSpace(e.target.value as MeterSpace)}>
          {meterSpaces.map((s) => (
            <option key={s} value={s}>
              {spaceLabels[s]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Area served{' '}
        <input inputMode="decimal" size={8} value={area} onChange={(e) => setArea(e.target.value)} />
      </label>
      <label>
        Unit <input size={6} value={unit} onChange={(e) => setUnit(e.target.value)} />
      </label>
      <button type="submit" className="primary">
        Add
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}
