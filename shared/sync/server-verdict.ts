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
