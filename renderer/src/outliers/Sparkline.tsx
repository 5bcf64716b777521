import type { IntensityRange } from '../../../shared/domain';
import { sparklinePoints } from './series';

/** A small inline SVG line of values, with the accepted range as a band and out-of-range points red. */
export function Sparkline({
  values,
  labels,
  outside,
  range,
  width = 140,
  height = 36,
}: {
  values: number[];
  labels: string[];
  outside: boolean[];
  range?: IntensityRange | undefined;
  width?: number;
  height?: number;
}) {
  const { points, band, scale } = sparklinePoints(values, width, height, range);
  const step = values.length > 1 ? (width - 4) / (values.length - 1) : 0;
  return (
    <svg
      className="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={values.map((v, i) => `${labels[i]}: ${v}`).join(', ')}
    >
      {band && <rect x={0} y={band.y} width={width} height={band.h} className="sparkline-band" />}
      <polyline points={points} className="sparkline-line" fill="none" />
      {values.map((v, i) => (
        <circle
          key={i}
          cx={2 + i * step}
          cy={scale(v)}
          r={outside[i] ? 3 : 2}
          className={outside[i] ? 'sparkline-out' : 'sparkline-dot'}
        >
          <title>{`${labels[i]}: ${v}`}</title>
        </circle>
      ))}
    </svg>
  );
}
