/**
 * The review's words for a document path and its values: the columns' labels and the year
 * ("2024 · Energy covered floor area, whole building, fuel"), a certification or energy rating by its
 * scheme ("BREEAM In-Use · Year"), an added or removed record as such (never "(empty) → true").
 */
import type { AssetDoc } from '../../../shared/sync/asset-doc';
import { entryKey } from '../../../shared/sync/asset-doc';
import type { ReferenceData } from '../../../shared/bridge/types';
import { fieldLabel, messageWithLabels, pathLabel } from '../validation/labels';

type Entries = 'certifications' | 'energy_ratings';
const schemeField: Record<Entries, string> = {
  certifications: 'certification_id',
  energy_ratings: 'energy_rating_id',
};
const recordWord: Record<Entries, string> = {
  certifications: 'certification',
  energy_ratings: 'energy rating',
};

function schemeName(reference: ReferenceData | undefined, kind: Entries, id: unknown): string | undefined {
  const list = kind === 'certifications' ? reference?.certifications : reference?.energyRatings;
  return list?.find((s) => s.id === Number(id))?.name;
}

/** The record of an entry path in either copy of the asset (a removed one is only in the base). */
function entryOf(docs: Array<AssetDoc | null | undefined>, kind: Entries, key: string) {
  for (const doc of docs) {
    const list = doc?.[kind];
    if (!Array.isArray(list)) continue;
    const entry = (list as Record<string, unknown>[]).find((e) => entryKey(kind, e) === key);
    if (entry) return entry;
  }
  return undefined;
}

export interface ReviewContext {
  docs: Array<AssetDoc | null | undefined>;
  reference: ReferenceData | undefined;
}

/** A path as the review names it. */
export function reviewLabel(path: string, ctx: ReviewContext): string {
  const [head, key, field] = path.split('/');
  if ((head === 'certifications' || head === 'energy_ratings') && key !== undefined) {
    const entry = entryOf(ctx.docs, head, key);
    const scheme = schemeName(ctx.reference, head, entry?.[schemeField[head]]);
    const what =
      scheme ?? `New ${recordWord[head]}${entry?.[schemeField[head]] == null ? ' (no scheme yet)' : ''}`;
    return field ? `${what} · ${fieldLabel(field)}` : what;
  }
  if (head === 'annual_data' && key !== undefined && field === undefined) return `${key} annual record`;
  return pathLabel(path);
}

/** Whether the path is a whole record (an annual year, a certification), added or removed as one. */
export function isRecordPath(path: string): boolean {
  const parts = path.split('/');
  return parts.length === 2;
}

/** A value as the review shows it: a scheme by its name, blank as "(empty)". */
export function reviewValue(path: string, text: string, ctx: ReviewContext): string {
  const [head, , field] = path.split('/');
  if ((head === 'certifications' || head === 'energy_ratings') && field === schemeField[head])
    return schemeName(ctx.reference, head, text) ?? text;
  return text;
}

/** A rule's message in the columns' words. */
export function reviewMessage(message: string): string {
  return messageWithLabels(message);
}
