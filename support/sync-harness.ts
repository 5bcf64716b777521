import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  defaultCertificationSchemes,
  defaultPropertyTypeCodes,
  type Asset,
  type ValidationContext,
} from '../shared/domain';
import type { AssetDoc } from '../shared/sync/asset-doc';
import { SubmissionApiClient, type ApiClientOptions } from '../electron/service-client/service-client';
import { SyncEngine, type SyncEngineOptions, type SyncProgress } from '../electron/sync/sync-engine';
import { WorkspaceStore } from '../electron/workspace/workspace-store';
import { assessmentYear } from './assessment-year';

export function tempWorkspace(name = 'workspace'): { store: WorkspaceStore; file: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'asset-desk-ws-')), `${name}.sqlite`);
  return { store: WorkspaceStore.open(file), file };
}

export function validationContext(mode: 'create' | 'update'): ValidationContext {
  return {
    mode,
    assessmentYear,
    areaUnit: 'm2',
    certifications: defaultCertificationSchemes,
    propertyTypes: defaultPropertyTypeCodes,
  };
}

/** `newAsset(id)` as the service lists it: its service id `id`, no partners id, certificates or outliers. */
export function remoteAsset(id: number): Asset {
  return {
    ...newAsset(id),
    service_asset_id: id,
    partners_id: null,
    certifications: [],
    _outliers: [],
  } as unknown as Asset;
}

/** A new office in Amsterdam with every field a push needs, named `name`, sized by `i`. */
export const amsterdamOffice = (name: string, i: number) => ({
  name,
  country: 'NL',
  state_province: 'Noord-Holland',
  city: 'Amsterdam',
  ownership: 100,
  property_type_code: 'OCHI',
  size: 1_000 + i,
});

/** A valid new asset with `years` of annual data, distinct by `i`. */
export function newAsset(i: number, years = 1): AssetDoc {
  return {
    ...amsterdamOffice(`Asset ${i}`, i),
    annual_data: Array.from({ length: years }, (_, k) => ({
      year: assessmentYear - 1 - k,
      owned_entire_period: true,
      tenant_ctrl: false,
      whole_building: true,
      en_abs_wf: 50_000 + i + k,
      en_cov_wf: 800,
      en_tot_wf: 1_000,
    })),
  };
}

export function makeClient(
  baseUrl: string,
  token: string,
  extra: Partial<ApiClientOptions> = {},
): SubmissionApiClient {
  return new SubmissionApiClient({
    baseUrl,
    getToken: () => token,
    retryBaseDelayMs: 20,
    timeoutMs: 20_000,
    ...extra,
  });
}

export function makeEngine(
  store: WorkspaceStore,
  client: SubmissionApiClient,
  entityId: number,
  extra: Partial<SyncEngineOptions> = {},
): { engine: SyncEngine; progress: SyncProgress[] } {
  const progress: SyncProgress[] = [];
  const engine = new SyncEngine({
    store,
    client,
    entityId,
    validationContext,
    onProgress: (p) => progress.push(p),
    ...extra,
  });
  return { engine, progress };
}

/** Counts what the service answered, by status, without changing any answer. */
export function countingFetch(): { fetch: typeof fetch; statuses: number[] } {
  const statuses: number[] = [];
  return {
    statuses,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  };
}

/**
 * The sandbox's two namings: our spec's (`service_asset_id`, its default) and the real service's
 * (`gresb_asset_id`, no `lat`/`lng`/`owned_entire_period`). The sync flows run against both, with a
 * client that starts from our spec's name and learns the service's from its answers.
 */
export const namings = [
  { names: "our spec's names", realNames: false },
  { names: "the real service's names", realNames: true },
] as const;
