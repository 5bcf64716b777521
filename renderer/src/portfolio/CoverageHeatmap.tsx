/**
 * The coverage heat map as a chart (Chart.js with its matrix controller): assets down, utility and
 * year across, each cell coloured by the share of floor area with data, with a tooltip; a click
 * opens the asset's annual data. The assets with the most gaps come first; a long pool is cut to
 * the first rows so the canvas stays readable (the table below and the export hold them all).
 */
import { useEffect, useRef } from 'react';
import { CategoryScale, Chart, Tooltip, type ChartConfiguration } from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';

Chart.register(MatrixController, MatrixElement, CategoryScale, Tooltip);

export interface HeatCell {
  x: string;
  y: string;
  /** 0..1, or null where the asset reports no floor area for it. */
  v: number | null;
  key: string;
  year: number;
}

export type CoverageLevel = 'none' | 'full' | 'part' | 'low';

/** A share's band, for the chart's colour and the table's class (`heat-<level>` in styles.css). */
export const coverageLevel = (v: number | null): CoverageLevel =>
  v === null ? 'none' : v >= 0.999 ? 'full' : v >= 0.5 ? 'part' : 'low';

const colours: Record<CoverageLevel, string> = {
  none: '#eef0f3',
  full: '#5cb270',
  part: '#f2c14e',
  low: '#e06c5a',
};
const colour = (v: number | null): string => colours[coverageLevel(v)];

export function CoverageHeatmap(props: {
  cells: HeatCell[];
  columns: string[];
  rows: string[];
  onCell: (cell: HeatCell) => void;
}) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const { cells, columns, rows, onCell } = props;
  useEffect(() => {
    if (!canvas.current || rows.length === 0) return;
    const config: ChartConfiguration<'matrix', HeatCell[], string> = {
      type: 'matrix',
      data: {
        datasets: [
          {
            label: 'Coverage',
            data: cells,
            backgroundColor: (ctx) => colour((ctx.raw as HeatCell | undefined)?.v ?? null),
            borderColor: '#ffffff',
            borderWidth: 1,
            width: ({ chart }) => (chart.chartArea?.width ?? 0) / columns.length - 1,
            height: ({ chart }) => (chart.chartArea?.height ?? 0) / rows.length - 1,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: (items) => (items[0]?.raw as HeatCell | undefined)?.y ?? '',
              label: (item) => {
                const cell = item.raw as HeatCell;
                return `${cell.x}: ${cell.v === null ? 'no floor area reported' : `${(cell.v * 100).toFixed(0)} % of floor area with data`}`;
              },
            },
          },
        },
        scales: {
          x: {
            type: 'category',
            labels: columns,
            position: 'top',
            title: { display: true, text: 'Utility and year' },
            grid: { display: false },
          },
          y: {
            type: 'category',
            labels: rows,
            offset: true,
            title: { display: true, text: 'Asset' },
            grid: { display: false },
          },
        },
        onClick: (_event, elements) => {
          const hit = elements[0];
          if (hit) onCell(cells[hit.index]!);
        },
      },
    };
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [cells, columns, rows, onCell]);
  return (
    <figure className="portfolio-chart" data-testid="chart-coverage-heatmap">
      <figcaption>
        Coverage by asset, utility and year (green full, amber half or more, red less); a cell opens the
        asset.{' '}
        <span data-testid="heatmap-grey">
          Grey: no floor area reported for that utility and year, so its coverage cannot be measured.
        </span>
      </figcaption>
      <div className="portfolio-heatmap-area" style={{ height: `${Math.max(160, 40 + rows.length * 16)}px` }}>
        <canvas ref={canvas} role="img" aria-label="Coverage by asset, utility and year" />
      </div>
    </figure>
  );
}
