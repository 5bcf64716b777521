/**
 * Why a value was flagged: per asset and KPI, the intensity across the years as a chart with the
 * property type's range, the like-for-like change with its limit, and the service's own flags.
 */
import { useMemo, useState } from 'react';
import { areaUnitFromName, computeOutliers, type Outlier } from '../../../shared/domain';
import { assetName } from '../grid-model/rows';
import { jumpTo } from '../store/ui';
import { useWorkspace } from '../store/workspace';
import { kpiLabels, outlierSeries } from './series';
import { IntensityChart } from './IntensityChart';

const kpiField: Record<string, string> = {
  en: 'en_abs_we',
  ghg: 'ghg_abs_s1_w',
  wat: 'wat_abs_w',
  was: 'was_abs_nhaz',
};

/** "Energy like-for-like change +171.3 %", "Water intensity 5.2 m³/m²". */
function outlierText(o: Outlier): string {
  const { name, unit } = kpiLabels[o.kpi];
  const value = Number(o.value);
  if (o.type === 'lfl') {
    const topic = name.replace(/ intensity$/, '');
    return `${topic} like-for-like change ${value > 0 ? '+' : ''}${value.toFixed(1)} %`;
  }
  return `${name} ${fmt(value)} ${unit}`;
}

function fmt(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(1) : n.toPrecision(2);
}

export function OutliersView() {
  const assets = useWorkspace((s) => s.assets);
  const order = useWorkspace((s) => s.order);
  const meta = useWorkspace((s) => s.meta);
  const areaUnit = areaUnitFromName(meta?.entity.reporting_preferences.area_units_name);
  const flagged = useMemo(() => {
    const out: Array<{ localId: string; name: string; service: Outlier[]; offline: Outlier[] }> = [];
    for (const id of order) {
      const view = assets.get(id);
      if (!view || view.status === 'deleted') continue;
      const offline = computeOutliers(view.doc, { areaUnit });
      if (view.outliers.length > 0 || offline.length > 0)
        out.push({ localId: id, name: assetName(view), service: view.outliers, offline });
    }
    return out;
  }, [assets, order, areaUnit]);
  const [selected, setSelected] = useState<string | null>(null);
  const current = selected ?? flagged[0]?.localId ?? null;
  const view = current ? assets.get(current) : undefined;
  const series = useMemo(
    () => (view ? outlierSeries(view.doc, areaUnit, view.outliers) : []),
    [view, areaUnit],
  );

  return (
    <div
      className="outliers-view"
      data-testid="outliers-view"
      id="workspace-view"
      role="tabpanel"
      aria-labelledby="tab-outliers"
    >
      <aside className="outlier-list" aria-label="Flagged assets">
        <h2>Flagged assets ({flagged.length})</h2>
        {flagged.length === 0 && <p className="empty">No intensity or like-for-like outliers.</p>}
        <ul>
          {flagged.map((f) => (
            <li key={f.localId}>
              <button
                type="button"
                className={f.localId === current ? 'outlier-item selected' : 'outlier-item'}
                aria-pressed={f.localId === current}
                onClick={() => setSelected(f.localId)}
              >
                <span>{f.name}</span>
                <span className="tags">
                  {[
                    ...new Map([...f.service, ...f.offline].map((o) => [`${o.kpi}:${o.type}`, o])).values(),
                  ].map((o) => (
                    <span key={`${o.kpi}${o.type}`} className={`tag ${o.accepted ? '' : 'tag-warning'}`}>
                      {outlierText(o)}
                    </span>
                  ))}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="outlier-detail" aria-live="polite">
        {view ? (
          <>
            <h2>{assetName(view)}</h2>
            <p className="hint">
              Property type {String(view.doc['property_type_code'] ?? '—')}; intensity = consumption ÷ covered
              floor area (in m²). A value outside the range, or a like-for-like change beyond ±
              {series[0]?.lflLimit ?? 50} % from the year before, is flagged.
            </p>
            <div className="kpi-cards">
              {series.map((s) => (
                <KpiCard key={s.kpi} s={s} localId={view.localId} />
              ))}
            </div>
          </>
        ) : (
          <p className="empty">Choose a flagged asset.</p>
        )}
      </section>
    </div>
  );
}

/** One KPI of the chosen asset: its intensity by year against the range, and the flags on it. */
function KpiCard({ s, localId }: { s: ReturnType<typeof outlierSeries>[number]; localId: string }) {
  const label = kpiLabels[s.kpi];
  const latest = s.points[s.points.length - 1];
  return (
    <article
      className={`kpi-card ${s.flags.length + s.serviceFlags.length > 0 ? 'flagged' : ''}`}
      data-testid={`kpi-${s.kpi}`}
    >
      <h3>
        {label.name} <span className="hint">{label.unit}</span>
      </h3>
      <IntensityChart
        kpiName={label.name}
        unit={label.unit}
        years={s.points.map((p) => String(p.year))}
        values={s.points.map((p) => p.intensity)}
        outside={s.points.map((p) => p.outside)}
        range={s.range}
      />
      <p className="threshold">
        Range {s.range ? `${fmt(s.range.min)}–${fmt(s.range.max)}` : 'none'} · LfL limit ±{s.lflLimit} %
      </p>
      <table className="kpi-table">
        <thead>
          <tr>
            <th scope="col">Year</th>
            <th scope="col">Intensity</th>
            <th scope="col">LfL</th>
          </tr>
        </thead>
        <tbody>
          {s.points.map((p) => (
            <tr
              key={p.year}
              className={p.outside || (p.lfl !== null && Math.abs(p.lfl) > s.lflLimit) ? 'out' : ''}
            >
              <td>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => jumpTo(localId, `annual_data/${p.year}/${kpiField[s.kpi]}`, 'annual')}
                >
                  {p.year}
                </button>
              </td>
              <td>{fmt(p.intensity)}</td>
              <td>{p.lfl === null ? '—' : `${p.lfl > 0 ? '+' : ''}${p.lfl.toFixed(1)} %`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {(s.flags.length > 0 || s.serviceFlags.length > 0) && latest && (
        <p className="flags">
          {s.flags.map((f) => (
            <span key={`o${f.type}`} className="tag tag-warning">
              offline: {outlierText(f)}
            </span>
          ))}
          {s.serviceFlags.map((f) => (
            <span key={`s${f.type}`} className="tag">
              service: {outlierText(f)}
              {f.accepted ? ' (accepted)' : ''}
            </span>
          ))}
        </p>
      )}
    </article>
  );
}
