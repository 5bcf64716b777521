/**
 * The arguments of the meters' bridge methods (`meters.*` in shared/bridge/contract.ts), parsed by
 * the hosts before a handler sees them: sizes bounded first, then shapes. Values of a cell edit are
 * scalars checked in main against the meter or reading schema once applied (types.ts).
 */
import { z } from 'zod';
import { handSourceKinds } from '../history/change-source';
import { importColumns } from './import-rows';
import { meterSpaces, meterUtilities } from './types';

const id = z.string().min(1).max(128);
const localId = z.string().min(1).max(64);
const cellValue = z.union([z.string().max(1_000), z.number().finite(), z.boolean(), z.null()]);
const year = z.number().int().min(1900).max(2200);

export const meterFields = [
  'name',
  'utility',
  'space',
  'areaServed',
  'unit',
  'energyContentKwh',
  'energyContentPer',
] as const;
export const readingFields = ['meterId', 'start', 'end', 'quantity', 'unit', 'estimated'] as const;

export const meterInput = z
  .object({
    id: id.optional(),
    name: z.string().max(200),
    assetId: localId,
    utility: z.enum(meterUtilities),
    space: z.enum(meterSpaces),
    areaServed: z.number().nonnegative().finite().nullable(),
    unit: z.string().min(1).max(40),
    energyContent: z
      .object({ kwh: z.number().positive().finite(), per: z.string().min(1).max(40) })
      .strict()
      .nullable(),
  })
  .strict();

export const readingInput = z
  .object({
    meterId: id,
    start: z.string().max(10),
    end: z.string().max(10),
    quantity: z.number().finite(),
    unit: z.string().min(1).max(40),
    estimated: z.boolean(),
  })
  .strict();

export const metersArgs = {
  list: z.object({ assetId: localId.optional() }).strict(),
  saveMeters: z.object({ meters: z.array(meterInput).min(1).max(10_000) }).strict(),
  edit: z
    .object({
      meters: z
        .array(z.object({ id, field: z.enum(meterFields), value: cellValue }).strict())
        .max(100_000)
        .optional(),
      readings: z
        .array(z.object({ id, field: z.enum(readingFields), value: cellValue }).strict())
        .max(100_000)
        .optional(),
      /** What the analyst's hand did (typed, paste, fill, replace, clear): the step's source and label. */
      source: z.enum(handSourceKinds).optional(),
    })
    .strict(),
  addReadings: z.object({ readings: z.array(readingInput).min(1).max(100_000) }).strict(),
  delete: z
    .object({
      meterIds: z.array(id).max(100_000).optional(),
      readingIds: z.array(id).max(100_000).optional(),
    })
    .strict(),
  previewImport: z.union([
    z
      .object({
        fileId: z.string().min(1).max(64),
        /** For Portfolio Manager's XML, whose meters don't name their asset: the asset they go to. */
        asset: localId.optional(),
        mapping: z.partialRecord(z.enum(importColumns), z.string().max(200)).optional(),
        dateOrder: z.enum(['dmy', 'mdy']).optional(),
      })
      .strict(),
    z
      .object({
        planId: z.string().min(1).max(64),
        asset: localId.optional(),
        mapping: z.partialRecord(z.enum(importColumns), z.string().max(200)).optional(),
        dateOrder: z.enum(['dmy', 'mdy']).optional(),
      })
      .strict(),
  ]),
  applyImport: z
    .object({
      planId: z.string().min(1).max(64),
      /** Create the assets the file names and the workspace doesn't have (default: leave their rows out). */
      createAssets: z.boolean().optional(),
    })
    .strict(),
  figures: z
    .object({ assetIds: z.array(localId).min(1).max(100_000), years: z.array(year).max(200).optional() })
    .strict(),
  applyFigures: z
    .object({
      assetIds: z.array(localId).min(1).max(100_000),
      years: z.array(year).max(200).optional(),
      /** Also replace values typed by hand before any meter figure (shown old -> new first). */
      replaceTyped: z.boolean(),
    })
    .strict(),
  derived: z.object({ assetIds: z.array(localId).max(100_000).optional() }).strict(),
} as const;
