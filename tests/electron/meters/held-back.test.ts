/**
 * Derived cells held back by the reading rules, through the meters service over a real workspace
 * file: a figure made from a reading that breaks an error rule is not written (the cell keeps what
 * meters last wrote, or stays as it was), its mark says why, and fixing the reading writes it.
 */
import { describe, expect, it } from 'vitest';
import { metersRig } from '../../support/meters-rig';

async function setup(meterIds: ReadonlyArray<'E1' | 'G1'>) {
  const { store, h, localId, row } = metersRig({
    workspace: 'held-back',
    annual: [{ year: 2024, en_abs_wf: 50_000, en_tot_wf: 1_000 }],
  });
  const all = [
    {
      id: 'E1',
      name: 'Main electricity',
      assetId: localId,
      utility: 'electricity',
      space: 'whole_building',
      areaServed: 800,
      unit: 'kWh',
      energyContent: null,
    },
    {
      id: 'G1',
      name: 'Boiler gas',
      assetId: localId,
      utility: 'fuel',
      space: 'whole_building',
      areaServed: 1_000,
      unit: 'kWh',
      energyContent: null,
    },
  ] as const;
  await h['meters.saveMeters']({ meters: all.filter((m) => meterIds.includes(m.id)) });
  const reading = async (meterId: string, start: string) =>
    (await h['meters.list']({ assetId: localId })).readings.find(
      (r) => r.meterId === meterId && r.start === start,
    )!;
  const mark = async (year: number, field: string) =>
    (await h['meters.derived']({ assetIds: [localId] })).find((m) => m.year === year && m.field === field);
  return { store, h, localId, row, reading, mark };
}

const kwh = (meterId: string, start: string, end: string, quantity: number) => ({
  meterId,
  start,
  end,
  quantity,
  unit: 'kWh',
  estimated: false,
});

describe('derived cells held back by the reading rules', () => {
  it('keeps what meters last wrote while a reading has a negative quantity, says why, and writes once fixed', async () => {
    const { store, h, row, reading, mark } = await setup(['E1']);
    await h['meters.addReadings']({
      readings: [kwh('E1', '2024-01-01', '2024-06-30', 6_000), kwh('E1', '2024-07-01', '2024-12-31', 6_000)],
    });
    expect(row(2024)).toMatchObject({ en_abs_we: 12_000, en_cov_we: 800, en_data_to: '2024-12-31' });
    expect((await mark(2024, 'en_abs_we'))?.heldBack).toBeNull();

    // -6000 would make 0 kWh (the roll-up leaves the bad reading out: 6000): neither is written.
    const second = await reading('E1', '2024-07-01');
    const edited = await h['meters.edit']({
      readings: [{ id: second.id, field: 'quantity', value: -6_000 }],
    });
    expect(edited.views).toEqual([]);
    expect(edited.held).toEqual([]);
    expect(row(2024)).toMatchObject({ en_abs_we: 12_000, en_cov_we: 800, en_data_to: '2024-12-31' });
    const held = await mark(2024, 'en_abs_we');
    expect(held).toMatchObject({
      value: 12_000,
      heldBack: {
        unwritten: false,
        reason:
          'Held back: 1 reading of meter Main electricity has a negative quantity. Fix the readings on the Meters tab.',
      },
    });
    const figures = await h['meters.figures']({ assetIds: [store.listAssets()[0]!.localId], years: [2024] });
    expect(figures.cells.find((c) => c.field === 'en_abs_we')?.heldBack).toMatch(/negative quantity/);
    expect(figures.cells.find((c) => c.field === 'en_data_from')?.heldBack).toMatch(/negative quantity/);
    // The Problems panel's rule is there.
    const listing = await h['meters.list']({});
    expect(listing.issues).toContainEqual(
      expect.objectContaining({ rule: 'negative_quantity', readingId: second.id }),
    );

    // Fixed: written, the hold gone.
    await h['meters.edit']({ readings: [{ id: second.id, field: 'quantity', value: 7_000 }] });
    expect(row(2024)?.['en_abs_we']).toBe(13_000);
    expect((await mark(2024, 'en_abs_we'))?.heldBack).toBeNull();

    // Undo goes back through the held state to the first figure.
    store.undo();
    expect(row(2024)?.['en_abs_we']).toBe(12_000);
    expect((await mark(2024, 'en_abs_we'))?.heldBack?.reason).toMatch(/negative quantity/);
    store.undo();
    expect((await mark(2024, 'en_abs_we'))?.heldBack).toBeNull();
  });

  it('writes nothing from overlapping readings of a year meters never wrote, and marks the held figure', async () => {
    const { h, row, mark } = await setup(['E1']);
    await h['meters.addReadings']({
      readings: [
        kwh('E1', '2025-01-01', '2025-03-31', 900),
        // Overlaps the first by a month: summed it would count February twice.
        kwh('E1', '2025-02-01', '2025-04-30', 900),
      ],
    });
    expect(row(2025)).toBeUndefined();
    expect(await mark(2025, 'en_abs_we')).toMatchObject({
      value: 1_800,
      heldBack: {
        unwritten: true,
        reason: expect.stringMatching(
          /^Held back: 1 reading of meter Main electricity overlaps another reading/,
        ),
      },
    });
  });

  it('is not offered for "Apply meter figures" over a typed value, and names each meter and rule', async () => {
    const { h, row, reading, mark, localId } = await setup(['G1']);
    await h['meters.addReadings']({
      readings: [
        kwh('G1', '2024-01-01', '2024-06-30', 10_000),
        kwh('G1', '2024-07-01', '2024-12-31', 10_000),
        kwh('G1', '2024-03-01', '2024-02-01', 10),
      ],
    });
    const bad = await reading('G1', '2024-07-01');
    const edited = await h['meters.edit']({ readings: [{ id: bad.id, field: 'unit', value: 'm3' }] });
    expect(edited.held.find((c) => c.field === 'en_abs_wf')).toBeUndefined();
    await h['meters.applyFigures']({ assetIds: [localId], replaceTyped: true });
    expect(row(2024)?.['en_abs_wf']).toBe(50_000);
    expect((await mark(2024, 'en_abs_wf'))?.heldBack).toEqual({
      unwritten: true,
      reason:
        "Held back: 1 reading of meter Boiler gas ends before it starts; 1 reading of meter Boiler gas has a unit that doesn't fit the utility. Fix the readings on the Meters tab.",
    });
  });
});
