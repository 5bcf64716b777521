import { dictionaryAnnualFields, dictionaryAssetFields } from '../../fixtures/service-docs/data-dictionary';
import { describe, expect, it } from 'vitest';
import {
  annualFieldByName,
  annualFieldCatalog,
  assetFieldCatalog,
  countryCodes,
  defaultCertificationSchemes,
  defaultCodeLists,
  measureTriples,
} from '../../../shared/domain';

describe('annual field catalog', () => {
  it('holds the spec fields with their observed shapes', () => {
    const shape: Record<string, string> = {
      en_tot_wd: 'number',
      en_tot_we: 'number',
      en_tot_wf: 'number',
      en_tot_lc_te: 'number',
      ghg_tot_s3_w: 'number',
      wat_tot_w: 'number',
      was_pcov: 'number',
      asset_vacancy: 'number',
      en_ren_ofs_pbl: 'number',
      en_ren_ofs_claim: 'code',
      en_ren_ofs_proc_type: 'code',
      en_ren_ofs_vin_gen: 'code',
      ncmr_status: 'code',
      tenant_ctrl: 'boolean',
      whole_building: 'boolean',
      owned_entire_period: 'boolean',
    };
    for (const [name, type] of Object.entries(shape))
      expect(annualFieldByName.get(name)?.type, name).toBe(type);
  });

  it('generates the energy family from the pattern', () => {
    expect(annualFieldByName.get('en_abs_lc_bse')).toMatchObject({
      topic: 'energy',
      measure: 'abs',
      areaPart: 'lc_bs',
      utility: 'e',
      unit: 'kWh',
      isFloorArea: false,
    });
    expect(annualFieldByName.get('en_cov_tc_te')).toMatchObject({
      measure: 'cov',
      unit: 'area',
      isFloorArea: true,
    });
    // 5 parts x 3 utilities energy + 3 GHG scopes + 5 water parts
    expect(measureTriples).toHaveLength(15 + 3 + 5);
  });

  it("is the service's data dictionary: every annual field, no invented one", () => {
    const ours = annualFieldCatalog.map((d) => d.name);
    // Our spec keeps owned_entire_period although newer docs moved ownership dates to the asset.
    expect(ours.filter((n) => n !== 'owned_entire_period').sort()).toEqual(
      dictionaryAnnualFields.filter((n) => n !== 'year').sort(),
    );
    const assetNames = assetFieldCatalog.map((d) => d.name);
    // Our spec's names: service_asset_id for the docs' gresb_asset_id, and lat/lng.
    expect(assetNames.filter((n) => n !== 'lat' && n !== 'lng').sort()).toEqual(
      dictionaryAssetFields.map((n) => (n === 'gresb_asset_id' ? 'service_asset_id' : n)).sort(),
    );
  });

  it('has unique names and codes for every code field', () => {
    const names = annualFieldCatalog.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const d of annualFieldCatalog)
      if (d.type === 'code') expect(d.codes?.length, d.name).toBeGreaterThan(0);
    expect(annualFieldByName.get('en_ren_ofs_claim')?.codes).toEqual(['BUN', 'UNB', 'NMC', 'MIX', 'UNK']);
  });

  it('asset catalog marks the create-required fields', () => {
    expect(assetFieldCatalog.filter((d) => d.requiredOnCreate).map((d) => d.name)).toEqual([
      'name',
      'country',
      'state_province',
      'city',
      'ownership',
    ]);
  });
});

describe('reference data', () => {
  it('has the full ISO 3166 list and realistic schemes', () => {
    expect(countryCodes).toHaveLength(249);
    expect(countryCodes).toContain('NL');
    expect(defaultCertificationSchemes.find((s) => s.name === 'ENERGY STAR')?.levels).toEqual([]);
    expect(new Set(defaultCertificationSchemes.map((s) => s.id)).size).toBe(
      defaultCertificationSchemes.length,
    );
    expect(defaultCodeLists.map((l) => l.slug)).toContain('en_ren_ofs_proc_type');
  });
});
