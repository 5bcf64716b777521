/**
 * A bar chart with axes, units and tooltips, drawn by Chart.js (a well-kept charting library) on a
 * canvas. A click on a bar reports its category and series, so the view can show the assets behind
 * it. The chart is rebuilt when its data changes; Chart.js keeps no React state.
 */
import { useEffect, useRef } from 'react';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export interface BarSeries {
  label: string;
  values: (number | null)[];
  color: string;
}

const palette = ['#2f6fad', '#2e8b57', '#1f9bb5', '#a0642d'];
export const seriesColor = (i: number): string => palette[i % palette.length] ?? '#2f6fad';

/** Category labels under the bars are cut to this many characters. */
const MAX_TICK = 16;

export function BarChart(props: {
  testId: string;
  title: string;
  categories: string[];
  series: BarSeries[];
  xTitle: string;
  yTitle: string;
  /** Formats a value for the axis and the tooltip, with its unit. */
  format: (value: number) => string;
  onBar?: (category: number, series: number) => void;
}) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const { categories, series, xTitle, yTitle, format, onBar, title } = props;
  useEffect(() => {
    if (!canvas.current) return;
    const config: ChartConfiguration<'bar', (number | null)[], string> = {
      type: 'bar',
      data: {
        labels: categories,
        datasets: series.map((s) => ({ label: s.label, data: s.values, backgroundColor: s.color })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: series.length > 1, position: 'bottom' },
          tooltip: {
            callbacks: {
              label: (item) =>
                `${item.dataset.label ?? ''}: ${item.raw === null ? '–' : format(Number(item.raw))}`,
            },
          },
        },
        scales: {
          x: {
            title: { display: true, text: xTitle },
            // Long names ("Industrial: Distribution Warehouse") are cut under the bars, which keep
            // their height; the tooltip says the whole name.
            ticks: {
              callback(value) {
                const label = this.getLabelForValue(Number(value));
                return label.length > MAX_TICK ? `${label.slice(0, MAX_TICK - 1)}…` : label;
              },
            },
          },
          y: {
            title: { display: true, text: yTitle },
            ticks: { callback: (value) => format(Number(value)) },
          },
        },
        onClick: (_event, elements) => {
          const hit = elements[0];
          if (hit && onBar) onBar(hit.index, hit.datasetIndex);
        },
      },
    };
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [categories, series, xTitle, yTitle, format, onBar]);
  return (
    <figure className="portfolio-chart" data-testid={props.testId}>
      <figcaption>{title}</figcaption>
      <div className="portfolio-chart-area">
        <canvas ref={canvas} role="img" aria-label={title} />
      </div>
    </figure>
  );
}
