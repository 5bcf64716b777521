/** Human labels for document paths ("2024 · Energy consumption, whole building, fuel"). Pure. */
import { annualFieldByName, assetFieldByName } from '../../../shared/domain';

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

/** Field names inside a message, as the rules write them ("must be on or after ownership_from"). */
const fieldName = /\b(?:size|[a-z]+(?:_[a-z0-9]+)+)\b/g;

/**
 * A rule's message worded with the columns' labels: "must be on or after Owned from", "Must be
 * less than or equal to Floor area". Names the catalog does not know stay as they are.
 */
export function messageWithLabels(message: string): string {
  return message.replace(fieldName, (name) => {
    const label = fieldLabel(name);
    return label === name ? name : label;
  });
}
