import type { Validations } from '../domain';
import type { ServerVerdict } from './types';

/**
 * The service's word on an asset, taken from an answer (a batch's created or invalid item, a
 * validation result, a pulled asset): `_validations` at the asset, each annual record (by year) and
 * each certification (by id).
 */
export function verdictOf(asset: {
  _validations?: Validations | undefined;
  annual_data?: unknown;
  certifications?: unknown;
}): ServerVerdict {
  return {
    asset: asset._validations ?? { errors: {} },
    annualData: entries(asset.annual_data).map((entry) => ({
      year: entry['year'],
      _validations: entry['_validations'] as Validations | undefined,
    })),
    certifications: entries(asset.certifications).map((entry) => ({
      id: entry['id'],
      _validations: entry['_validations'] as Validations | undefined,
    })),
  };
}

/** A list of records as the answer gave it (anything else: none); not a closure: a pull reads 20,000. */
const entries = (list: unknown): Array<Record<string, unknown>> =>
  Array.isArray(list) ? (list as Array<Record<string, unknown>>) : [];

/** How an asset's verdict reads: none given, given without a message, or with one somewhere. */
export type VerdictKind = 'none' | 'silent' | 'loud';

/**
 * The kind of `verdictOf(asset)`: 'none' without the asset's own `_validations` (a stored verdict
 * then stays), 'loud' when it or a record's or a certification's has a message.
 */
export function verdictKind(asset: {
  _validations?: Validations | undefined;
  annual_data?: unknown;
  certifications?: unknown;
}): VerdictKind {
  if (!asset._validations) return 'none';
  const loud =
    hasMessages(asset._validations) ||
    someEntryHasMessages(asset.annual_data) ||
    someEntryHasMessages(asset.certifications);
  return loud ? 'loud' : 'silent';
}

const someEntryHasMessages = (list: unknown): boolean =>
  entries(list).some((entry) => hasMessages(entry['_validations'] as Validations | undefined));

/** An error or a warning in these validations. */
export function hasMessages(validations: Validations | undefined): boolean {
  if (validations === undefined) return false;
  for (const key in validations.errors) if ((validations.errors[key]?.length ?? 0) > 0) return true;
  for (const key in validations.warnings) if ((validations.warnings[key]?.length ?? 0) > 0) return true;
  return false;
}
