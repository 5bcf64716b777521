/**
 * An asset's intensity across the years as a line chart (Chart.js): a year axis, an intensity axis
 * in the KPI's unit, the property type's range as two dashed lines, out-of-range years in red, and a
 * tooltip per year.
 */
import { useEffect, useRef } from 'react';
import {
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import type { IntensityRange } from '../../../shared/domain';

Chart.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

export function IntensityChart(props: {
  kpiName: string;
  unit: string;
  years: string[];
  values: number[];
  outside: boolean[];
  range?: IntensityRange | undefined;
}) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const { kpiName, unit, years, values, outside, range } = props;
  useEffect(() => {
    if (!canvas.current) return;
    const limit = (value: number | undefined, label: string) =>
      value === undefined || !Number.isFinite(value)
        ? []
        : [
            {
              label,
              data: years.map(() => value),
              borderColor: '#8a5a00',
              borderDash: [4, 4],
              borderWidth: 1,
              pointRadius: 0,
            },
          ];
    const config: ChartConfiguration<'line', number[], string> = {
      type: 'line',
      data: {
        labels: years,
        datasets: [
          {
            label: kpiName,
            data: values,
            borderColor: '#2f6fad',
            pointBackgroundColor: outside.map((o) => (o ? '#b3261e' : '#2f6fad')),
            pointRadius: outside.map((o) => (o ? 5 : 3)),
          },
          ...limit(range?.min, 'Range minimum'),
          ...limit(range?.max, 'Range maximum'),
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
              label: (item) =>
                `${item.dataset.label ?? ''}: ${Number(item.raw).toPrecision(3)} ${unit}${
                  item.datasetIndex === 0 && outside[item.dataIndex] ? ' (outside the range)' : ''
                }`,
            },
          },
        },
        scales: {
          x: { title: { display: true, text: 'Year' } },
          y: { title: { display: true, text: unit } },
        },
      },
    };
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [kpiName, unit, years, values, outside, range]);
  return (
    <div className="intensity-chart">
      <canvas ref={canvas} role="img" aria-label={`${kpiName} by year, ${unit}`} />
    </div>
  );
}
