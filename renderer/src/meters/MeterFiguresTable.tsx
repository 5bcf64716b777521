/**
 * The Portfolio view's figures from meters (issue 32): per reporting year and topic, how many assets
 * have consumption worked out from meters, how much, and its estimated share (GRESB caps estimates;
 * README "Meters and readings"). Read from what meters wrote into the assets' cells (the derived
 * marks), so it matches the cells as they are; a value the analyst overrode is not counted here.
 */
import { useMemo } from 'react';
import type { DerivedMark } from '../../../shared/meters/views';
import { useWorkspace } from '../store/workspace';
import { useMeters } from './meters-store';

const topics = [
  { id: 'energy', label: 'Energy', prefix: 'en_abs_', unit: 'kWh' },
  { id: 'water', label: 'Water', prefix: 'wat_abs_', unit: 'm³' },
  { id: 'waste', label: 'Waste', prefix: 'was_abs_', unit: 't' },
] as const;

interface Row {
  year: number;
  topic: (typeof topics)[number];
  assets: Set<string>;
  total: number;
  estimated: number;
}

function rowsOf(
  marks: ReadonlyMap<string, ReadonlyMap<string, DerivedMark>>,
  current: (m: DerivedMark) => unknown,
) {
  const rows = new Map<string, Row>();
  for (const [localId, byPath] of marks) {
    for (const mark of byPath.values()) {
      const topic = topics.find((t) => mark.field.startsWith(t.prefix));
      if (
        !topic ||
        typeof mark.value !== 'number' ||
        mark.heldBack?.unwritten ||
        current(mark) !== mark.value
      )
        continue;
      const key = `${mark.year}|${topic.id}`;
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { year: mark.year, topic, assets: new Set(), total: 0, estimated: 0 }));
      row.assets.add(localId);
      row.total += mark.value;
      row.estimated += mark.value * (mark.estimatedShare ?? 0);
    }
  }
  return [...rows.values()].sort((a, b) => b.year - a.year || a.topic.label.localeCompare(b.topic.label));
}

export function MeterFiguresTable() {
  const version = useMeters((s) => s.marksVersion);
  const marks = useMeters((s) => s.marks);
  const assets = useWorkspace((s) => s.assets);
  const rows = useMemo(() => {
    void version;
    const valueOf = (m: DerivedMark) => {
      const list = assets.get(m.localId)?.doc['annual_data'];
      const row = Array.isArray(list)
        ? (list as Array<Record<string, unknown>>).find((r) => r['year'] === m.year)
        : undefined;
      return row?.[m.field];
    };
    return rowsOf(marks, valueOf);
  }, [marks, version, assets]);
  if (rows.length === 0) return null;
  return (
    <section data-testid="portfolio-meters">
      <h3>From meters</h3>
      <table className="portfolio-table">
        <caption>Consumption worked out from meter readings, and how much of it is estimated</caption>
        <thead>
          <tr>
            <th scope="col">Year</th>
            <th scope="col">Topic</th>
            <th scope="col">Assets</th>
            <th scope="col">Consumption</th>
            <th scope="col">Estimated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const share = r.total > 0 ? r.estimated / r.total : 0;
            return (
              <tr key={`${r.year}|${r.topic.id}`}>
                <td>{r.year}</td>
                <td>{r.topic.label}</td>
                <td>{r.assets.size}</td>
                <td>
                  {Math.round(r.total).toLocaleString('en')} {r.topic.unit}
                </td>
                <td title={share > 0.2 ? 'Above the 20 % GRESB allows for estimates' : undefined}>
                  {(share * 100).toFixed(1)} %{share > 0.2 ? ' ⚠' : ''}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
