/** How the portfolio view writes its figures: units, shares, amounts and intensities. */
import type { PortfolioUtility } from '../../../shared/portfolio/asset-figures';

export const consumptionUnits: Record<PortfolioUtility, string> = {
  energy: 'kWh',
  ghg: 't',
  water: 'm³',
  waste: 't',
};

/**
 * An intensity per floor-area unit: GHG and waste in kg (their tonnes per m² read "0 t"), every
 * utility with three significant digits, so small values keep their figures.
 */
export function intensityText(utility: PortfolioUtility, perArea: number): string {
  const tonnes = consumptionUnits[utility] === 't';
  const value = tonnes ? perArea * 1000 : perArea;
  const digits = Math.abs(value) >= 100 ? { maximumFractionDigits: 0 } : { maximumSignificantDigits: 3 };
  return `${value.toLocaleString(undefined, digits)} ${tonnes ? 'kg' : consumptionUnits[utility]}`;
}

export const pct = (share: number | null): string => (share === null ? '–' : `${(share * 100).toFixed(1)} %`);
export const num = (n: number): string => n.toLocaleString(undefined, { maximumFractionDigits: 1 });
