/**
 * Field catalogs as data. Grid columns, workbook columns and the rules all derive from these lists, so
 * a field added here is validated, shown and imported without further code.
 *
 * The regular families (energy, GHG, water) are generated from the naming pattern in domain-notes.md
 * (topic_measure_part+utility); irregular fields are literal data.
 */

export type FieldType = 'number' | 'boolean' | 'code' | 'date' | 'string';
export type FieldUnit = 'kWh' | 'tonnes' | 'm3' | '%' | 'area' | 'year' | 'millions';
export type Topic = 'energy' | 'ghg' | 'water' | 'waste' | 'reporting' | 'efficiency';
export type Measure = 'abs' | 'cov' | 'tot' | 'ren' | 'rec' | 'pabs' | 'pcov';
export type AreaPart = 'w' | 'lc_bs' | 'lc_bc' | 'lc_t' | 'tc_t' | 'lc_o' | 'tc_o' | 'o' | 'nopr';
/** `f` fuel, `d` district heating/cooling, `e` electricity; GHG fields use the scope as "utility". */
export type Utility = 'f' | 'd' | 'e' | 'ev' | 's1' | 's2_lb' | 's2_mb' | 's3';

export type AnnualFieldDef = {
  readonly name: string;
  readonly label: string;
  readonly type: FieldType;
  readonly unit?: FieldUnit;
  readonly topic: Topic;
  readonly measure?: Measure;
  readonly areaPart?: AreaPart;
  readonly utility?: Utility;
  readonly codes?: readonly string[];
  /** Floor areas are in the entity's area unit and may not exceed the asset's `size`. */
  readonly isFloorArea: boolean;
};

export type AssetFieldDef = {
  readonly name: string;
  readonly label: string;
  readonly type: FieldType | 'integer';
  readonly maxLength?: number;
  readonly requiredOnCreate: boolean;
  readonly unit?: FieldUnit;
  /** Key used in `_validations.errors` when it differs from `name` (the service reports `size` as `asset_size`). */
  readonly errorKey?: string;
};

export const MAX_STRING_LENGTH = 255;

export const assetFieldCatalog: readonly AssetFieldDef[] = [
  { name: 'service_asset_id', label: 'Asset ID', type: 'integer', requiredOnCreate: false },
  { name: 'partners_id', label: 'Partner ID', type: 'integer', requiredOnCreate: false },
  { name: 'name', label: 'Asset name', type: 'string', maxLength: MAX_STRING_LENGTH, requiredOnCreate: true },
  { name: 'country', label: 'Country', type: 'code', maxLength: MAX_STRING_LENGTH, requiredOnCreate: true },
  {
    name: 'state_province',
    label: 'State/Province',
    type: 'string',
    maxLength: MAX_STRING_LENGTH,
    requiredOnCreate: true,
  },
  { name: 'city', label: 'City', type: 'string', maxLength: MAX_STRING_LENGTH, requiredOnCreate: true },
  {
    name: 'address',
    label: 'Address',
    type: 'string',
    maxLength: MAX_STRING_LENGTH,
    requiredOnCreate: false,
  },
  { name: 'lat', label: 'Latitude', type: 'number', requiredOnCreate: false },
  { name: 'lng', label: 'Longitude', type: 'number', requiredOnCreate: false },
  {
    name: 'construction_year',
    label: 'Construction year',
    type: 'integer',
    unit: 'year',
    requiredOnCreate: false,
  },
  { name: 'ownership', label: 'Ownership (%)', type: 'number', unit: '%', requiredOnCreate: true },
  { name: 'ownership_from', label: 'Owned from', type: 'date', requiredOnCreate: false },
  { name: 'ownership_to', label: 'Owned until', type: 'date', requiredOnCreate: false },
  {
    name: 'property_type_code',
    label: 'Property type',
    type: 'code',
    maxLength: MAX_STRING_LENGTH,
    requiredOnCreate: false,
  },
  {
    name: 'gav',
    label: 'Gross asset value (millions)',
    type: 'number',
    unit: 'millions',
    requiredOnCreate: false,
  },
  {
    name: 'size',
    label: 'Floor area',
    type: 'number',
    unit: 'area',
    requiredOnCreate: false,
    errorKey: 'asset_size',
  },
];

/** `always_create` still needs these (domain-notes.md, "Batches, in practice"). */
export const alwaysCreateRequiredFields: readonly string[] = [
  'name',
  'country',
  'state_province',
  'city',
  'property_type_code',
];

export const energyAreaParts = ['w', 'lc_bs', 'lc_bc', 'lc_t', 'tc_t'] as const;
export const energyUtilities = ['f', 'd', 'e'] as const;
export const ghgScopes = ['s1', 's2_lb', 's3'] as const;

const partLabels: Record<(typeof energyAreaParts)[number], string> = {
  w: 'whole building',
  lc_bs: 'landlord shared services',
  lc_bc: 'landlord common areas',
  lc_t: 'landlord-controlled tenant space',
  tc_t: 'tenant-controlled tenant space',
};
const utilityLabels: Record<(typeof energyUtilities)[number], string> = {
  f: 'fuel',
  d: 'district heating/cooling',
  e: 'electricity',
};
const scopeLabels: Record<(typeof ghgScopes)[number], string> = {
  s1: 'scope 1',
  s2_lb: 'scope 2 (location-based)',
  s3: 'scope 3',
};
const measureLabels = { abs: 'consumption', cov: 'covered floor area', tot: 'total floor area' } as const;
const triMeasures = ['abs', 'cov', 'tot'] as const;

export const renewableProcurementCodes = [
  'SGF',
  'PPA',
  'PSC',
  'RSC',
  'DDR',
  'PPT',
  'FPA',
  'EAC',
  'MIX',
] as const;
export const renewableClaimCodes = ['BUN', 'UNB', 'NMC', 'MIX', 'UNK'] as const;
export const renewableProximityCodes = ['SAM', 'DIM', 'MIX', 'UNK'] as const;
export const renewableVintageCodes = ['PEY', 'NPY', 'MIX', 'UNK'] as const;
export const ncmrStatusCodes = [
  'Standing Investment',
  'Major Renovation Project',
  'New Construction Project',
] as const;

function buildAnnualCatalog(): AnnualFieldDef[] {
  const out: AnnualFieldDef[] = [];
  const add = (d: AnnualFieldDef): void => {
    out.push(d);
  };

  // Reporting characteristics.
  add({
    name: 'tenant_ctrl',
    label: 'Whole building tenant controlled',
    type: 'boolean',
    topic: 'reporting',
    isFloorArea: false,
  });
  add({
    name: 'whole_building',
    label: 'Energy collected for whole building',
    type: 'boolean',
    topic: 'reporting',
    isFloorArea: false,
  });
  add({
    name: 'owned_entire_period',
    label: 'Owned for the entire period',
    type: 'boolean',
    topic: 'reporting',
    isFloorArea: false,
  });
  add({
    name: 'asset_vacancy',
    label: 'Vacancy (%)',
    type: 'number',
    unit: '%',
    topic: 'reporting',
    isFloorArea: false,
  });
  add({
    name: 'ncmr_status',
    label: 'Status',
    type: 'code',
    codes: ncmrStatusCodes,
    topic: 'reporting',
    isFloorArea: false,
  });
  add({ name: 'ncmr_from', label: 'Project start', type: 'date', topic: 'reporting', isFloorArea: false });
  add({ name: 'ncmr_to', label: 'Project end', type: 'date', topic: 'reporting', isFloorArea: false });
  const splits: [string, string][] = [
    ['asset_size_common', 'Common area'],
    ['asset_size_shared', 'Shared services area'],
    ['asset_size_tenant', 'Tenant space'],
    ['asset_size_tenant_landlord', 'Tenant space, landlord controlled'],
    ['asset_size_tenant_tenant', 'Tenant space, tenant controlled'],
  ];
  for (const [name, label] of splits) {
    add({ name, label, type: 'number', unit: 'area', topic: 'reporting', isFloorArea: true });
  }

  // Energy: measure x area part x utility.
  add({ name: 'en_data_from', label: 'Energy data from', type: 'date', topic: 'energy', isFloorArea: false });
  add({ name: 'en_data_to', label: 'Energy data to', type: 'date', topic: 'energy', isFloorArea: false });
  for (const part of energyAreaParts) {
    for (const utility of energyUtilities) {
      for (const measure of triMeasures) {
        add({
          name: `en_${measure}_${part}${utility}`,
          label: `Energy ${measureLabels[measure]}, ${partLabels[part]}, ${utilityLabels[utility]}`,
          type: 'number',
          unit: measure === 'abs' ? 'kWh' : 'area',
          topic: 'energy',
          measure,
          areaPart: part,
          utility,
          isFloorArea: measure !== 'abs',
        });
      }
    }
  }
  const outdoor: [string, AreaPart, Utility, string][] = [
    ['en_abs_lc_of', 'lc_o', 'f', 'Outdoor energy, landlord controlled, fuel'],
    ['en_abs_lc_oe', 'lc_o', 'e', 'Outdoor energy, landlord controlled, electricity'],
    ['en_abs_tc_of', 'tc_o', 'f', 'Outdoor energy, tenant controlled, fuel'],
    ['en_abs_tc_oe', 'tc_o', 'e', 'Outdoor energy, tenant controlled, electricity'],
    ['en_abs_nopr_ev', 'nopr', 'ev', 'EV charging energy'],
  ];
  for (const [name, areaPart, utility, label] of outdoor) {
    add({
      name,
      label,
      type: 'number',
      unit: 'kWh',
      topic: 'energy',
      measure: 'abs',
      areaPart,
      utility,
      isFloorArea: false,
    });
  }
  const renewables: [string, string][] = [
    ['en_ren_ons_con', 'On-site renewables consumed'],
    ['en_ren_ons_exp', 'On-site renewables exported'],
    ['en_ren_ons_tpt', 'On-site renewables by third party'],
    ['en_ren_ofs_pbl', 'Off-site renewables purchased by landlord'],
    ['en_ren_ofs_pbt', 'Off-site renewables purchased by tenant'],
  ];
  for (const [name, label] of renewables) {
    add({ name, label, type: 'number', unit: 'kWh', topic: 'energy', measure: 'ren', isFloorArea: false });
  }
  const renCodes: [string, string, readonly string[]][] = [
    ['en_ren_ofs_proc_type', 'Off-site renewables procurement type', renewableProcurementCodes],
    ['en_ren_ofs_claim', 'Off-site renewables claim', renewableClaimCodes],
    ['en_ren_ofs_prox', 'Off-site renewables proximity', renewableProximityCodes],
    ['en_ren_ofs_vin_gen', 'Off-site renewables vintage', renewableVintageCodes],
  ];
  for (const [name, label, codes] of renCodes) {
    add({ name, label, type: 'code', codes, topic: 'energy', isFloorArea: false });
  }

  // GHG: measure x scope, whole building only.
  for (const scope of ghgScopes) {
    for (const measure of triMeasures) {
      add({
        name: `ghg_${measure}_${scope}_w`,
        label: `GHG ${measureLabels[measure]}, ${scopeLabels[scope]}`,
        type: 'number',
        unit: measure === 'abs' ? 'tonnes' : 'area',
        topic: 'ghg',
        measure,
        areaPart: 'w',
        utility: scope,
        isFloorArea: measure !== 'abs',
      });
    }
  }
  add({
    name: 'ghg_abs_s2_mb_w',
    label: 'GHG emissions, scope 2 (market-based)',
    type: 'number',
    unit: 'tonnes',
    topic: 'ghg',
    measure: 'abs',
    areaPart: 'w',
    utility: 's2_mb',
    isFloorArea: false,
  });
  add({
    name: 'ghg_abs_offset',
    label: 'GHG offsets',
    type: 'number',
    unit: 'tonnes',
    topic: 'ghg',
    isFloorArea: false,
  });
  const ghgOutdoor: [string, Utility, string][] = [
    ['ghg_abs_s1_o', 's1', 'GHG emissions, scope 1, outdoor'],
    ['ghg_abs_s2_lb_o', 's2_lb', 'GHG emissions, scope 2 (location-based), outdoor'],
    ['ghg_abs_s2_mb_o', 's2_mb', 'GHG emissions, scope 2 (market-based), outdoor'],
    ['ghg_abs_s3_o', 's3', 'GHG emissions, scope 3, outdoor'],
  ];
  for (const [name, utility, label] of ghgOutdoor) {
    add({
      name,
      label,
      type: 'number',
      unit: 'tonnes',
      topic: 'ghg',
      measure: 'abs',
      areaPart: 'o',
      utility,
      isFloorArea: false,
    });
  }
  add({
    name: 'is_part_of_net_zero_targets',
    label: 'Part of net zero targets',
    type: 'boolean',
    topic: 'ghg',
    isFloorArea: false,
  });

  // Water: measure x area part (no utility).
  add({ name: 'wat_data_from', label: 'Water data from', type: 'date', topic: 'water', isFloorArea: false });
  add({ name: 'wat_data_to', label: 'Water data to', type: 'date', topic: 'water', isFloorArea: false });
  for (const part of energyAreaParts) {
    for (const measure of triMeasures) {
      add({
        name: `wat_${measure}_${part}`,
        label: `Water ${measureLabels[measure]}, ${partLabels[part]}`,
        type: 'number',
        unit: measure === 'abs' ? 'm3' : 'area',
        topic: 'water',
        measure,
        areaPart: part,
        isFloorArea: measure !== 'abs',
      });
    }
  }
  add({
    name: 'wat_abs_lc_o',
    label: 'Outdoor water, landlord controlled',
    type: 'number',
    unit: 'm3',
    topic: 'water',
    measure: 'abs',
    areaPart: 'lc_o',
    isFloorArea: false,
  });
  add({
    name: 'wat_abs_tc_o',
    label: 'Outdoor water, tenant controlled',
    type: 'number',
    unit: 'm3',
    topic: 'water',
    measure: 'abs',
    areaPart: 'tc_o',
    isFloorArea: false,
  });
  const recycled: [string, string][] = [
    ['wat_rec_ons_reu', 'Water reused on-site (grey/black water)'],
    ['wat_rec_ons_cap', 'Captured water treated for reuse (rain, fog, condensate)'],
    ['wat_rec_ons_ext', 'Extracted groundwater treated for reuse'],
    ['wat_rec_ofs_pur', 'Recycled water purchased off-site'],
  ];
  for (const [name, label] of recycled) {
    add({ name, label, type: 'number', unit: 'm3', topic: 'water', measure: 'rec', isFloorArea: false });
  }

  // Waste.
  add({ name: 'was_data_from', label: 'Waste data from', type: 'date', topic: 'waste', isFloorArea: false });
  add({ name: 'was_data_to', label: 'Waste data to', type: 'date', topic: 'waste', isFloorArea: false });
  add({
    name: 'was_abs_haz',
    label: 'Hazardous waste',
    type: 'number',
    unit: 'tonnes',
    topic: 'waste',
    measure: 'abs',
    isFloorArea: false,
  });
  add({
    name: 'was_abs_nhaz',
    label: 'Non-hazardous waste',
    type: 'number',
    unit: 'tonnes',
    topic: 'waste',
    measure: 'abs',
    isFloorArea: false,
  });
  add({
    name: 'was_pcov',
    label: 'Waste data coverage (%)',
    type: 'number',
    unit: '%',
    topic: 'waste',
    measure: 'pcov',
    isFloorArea: false,
  });
  const disposal: [string, string][] = [
    ['lf', 'landfill'],
    ['in', 'incineration'],
    ['ru', 'reuse'],
    ['wte', 'waste to energy'],
    ['rec', 'recycling'],
    ['oth', 'other'],
  ];
  for (const [suffix, label] of disposal) {
    add({
      name: `was_pabs_${suffix}`,
      label: `Waste to ${label} (%)`,
      type: 'number',
      unit: '%',
      topic: 'waste',
      measure: 'pabs',
      isFloorArea: false,
    });
  }

  // Efficiency measures implemented in the last three years (the data dictionary's `*_emr_*`).
  const emr: [string, string][] = [
    ['en_emr_tba', 'Energy: technical building assessment'],
    ['en_emr_amr', 'Energy: automatic meter readings'],
    ['en_emr_asur', 'Energy: automation system upgrades'],
    ['en_emr_msur', 'Energy: management system upgrades'],
    ['en_emr_ihee', 'Energy: high-efficiency equipment installed'],
    ['en_emr_iren', 'Energy: on-site renewables installed'],
    ['en_emr_oce', 'Energy: occupier engagement, IT improvements'],
    ['en_emr_sbt', 'Energy: smart grid or smart building technology'],
    ['en_emr_src', 'Energy: systems (retro-)commissioning'],
    ['en_emr_wri', 'Energy: wall or roof insulation'],
    ['en_emr_wdr', 'Energy: windows replaced'],
    ['wat_emr_tba', 'Water: technical building assessment'],
    ['wat_emr_amr', 'Water: automatic meter readings'],
    ['wat_emr_clt', 'Water: cooling towers'],
    ['wat_emr_dsi', 'Water: smart or drip irrigation'],
    ['wat_emr_dtnl', 'Water: drought-tolerant or native landscaping'],
    ['wat_emr_hedf', 'Water: high-efficiency or dry fixtures'],
    ['wat_emr_lds', 'Water: leak detection system'],
    ['wat_emr_mws', 'Water: sub-meters'],
    ['wat_emr_owwt', 'Water: on-site wastewater treatment'],
    ['wat_emr_rsgw', 'Water: storm or grey water reuse'],
    ['was_emr_tba', 'Waste: technical building assessment'],
    ['was_emr_clfw', 'Waste: composting landscape or food waste'],
    ['was_emr_opm', 'Waste: ongoing performance monitoring'],
    ['was_emr_rec', 'Waste: local recycling programme'],
    ['was_emr_wsm', 'Waste: waste management programme'],
    ['was_emr_wsa', 'Waste: waste stream audit'],
  ];
  for (const [name, label] of emr) {
    add({ name, label, type: 'boolean', topic: 'efficiency', isFloorArea: false });
  }
  return out;
}

export const annualFieldCatalog: readonly AnnualFieldDef[] = buildAnnualCatalog();

export const annualFieldByName: ReadonlyMap<string, AnnualFieldDef> = new Map(
  annualFieldCatalog.map((d) => [d.name, d]),
);
export const assetFieldByName: ReadonlyMap<string, AssetFieldDef> = new Map(
  assetFieldCatalog.map((d) => [d.name, d]),
);

export function annualFieldsByTopic(topic: Topic): readonly AnnualFieldDef[] {
  return annualFieldCatalog.filter((d) => d.topic === topic);
}

/** The abs/cov/tot fields of one area part and utility (or GHG scope), which go together. */
export type MeasureTriple = {
  readonly key: string;
  readonly topic: Topic;
  readonly areaPart: AreaPart;
  readonly utility?: Utility;
  readonly abs: string;
  readonly cov: string;
  readonly tot: string;
};

function buildTriples(): MeasureTriple[] {
  const groups = new Map<
    string,
    { topic: Topic; areaPart: AreaPart; utility?: Utility; abs?: string; cov?: string; tot?: string }
  >();
  for (const d of annualFieldCatalog) {
    if (d.measure !== 'abs' && d.measure !== 'cov' && d.measure !== 'tot') continue;
    if (d.areaPart === undefined) continue;
    const key = `${d.topic}:${d.areaPart}:${d.utility ?? ''}`;
    let g = groups.get(key);
    if (!g) {
      g = { topic: d.topic, areaPart: d.areaPart, ...(d.utility ? { utility: d.utility } : {}) };
      groups.set(key, g);
    }
    g[d.measure] = d.name;
  }
  const out: MeasureTriple[] = [];
  for (const [key, g] of groups) {
    if (g.abs && g.cov && g.tot) {
      out.push({
        key,
        topic: g.topic,
        areaPart: g.areaPart,
        ...(g.utility ? { utility: g.utility } : {}),
        abs: g.abs,
        cov: g.cov,
        tot: g.tot,
      });
    }
  }
  return out;
}

/** Precomputed once: the validator and outlier maths iterate these instead of parsing names. */
export const measureTriples: readonly MeasureTriple[] = buildTriples();
