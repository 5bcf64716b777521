/**
 * Human labels for document paths ("2024 · Energy consumption, whole building, fuel"): the grid's
 * messages, the cell history and the audit log word paths the same way. Pure.
 */
import { annualFieldByName, assetFieldByName } from './catalog';

const entryFieldLabels: Record<string, string> = {
  certification_id: 'Certification',
  energy_rating_id: 'Energy rating',
  level: 'Level',
  size: 'Floor area covered',
  year: 'Year',
};

export function fieldLabel(field: string): string {
  if (field === 'asset_size') return assetFieldByName.get('size')?.label ?? field;
  return (
    annualFieldByName.get(field)?.label ??
    assetFieldByName.get(field)?.label ??
    entryFieldLabels[field] ??
    field
  );
}

export function pathLabel(path: string): string {
  const [head, key, field] = path.split('/');
  if (head === undefined) return path;
  if (key === undefined) return fieldLabel(head);
  if (head === 'annual_data') return field ? `${key} · ${fieldLabel(field)}` : `${key} (annual record)`;
  const what = head === 'certifications' ? 'Certification' : 'Energy rating';
  const which = key.startsWith('id:') ? `#${key.slice(3)}` : 'new';
  return field ? `${what} ${which} · ${fieldLabel(field)}` : `${what} ${which}`;
}
