/**
 * Before the data is sent: the portfolio's totals, data coverage, like-for-like change, intensity
 * and renewable share, computed offline from the workspace (shared/portfolio). A coverage cell or an
 * excluded asset opens the asset in the grid.
 */
import type { PortfolioModel } from '../../../shared/portfolio/portfolio-model';
import { errorMessage } from '../../../shared/errors';
import { MeterFiguresTable } from '../meters/MeterFiguresTable';
import { bridge } from '../bridge';
import { saveDownload } from '../bridge/browser-files';
import { notify } from '../store/ui';
import { portfolioTables } from './export-tables';
import { PortfolioChartsRow } from './PortfolioChartsRow';
import { PortfolioCoverage } from './PortfolioCoverage';
import { PortfolioIntensity } from './PortfolioIntensity';
import { PortfolioLfl } from './PortfolioLfl';
import { PortfolioTotals } from './PortfolioTotals';
import { usePortfolioFigures } from './usePortfolioFigures';

export function PortfolioView() {
  const { assets, meta, area, figures, charts, heat, nameOf, assetName } = usePortfolioFigures();
  if (!figures || !meta || !charts || !heat) return null;
  const currency = meta.entity.reporting_preferences.currency;
  const years = [...new Set(figures.coverage.map((r) => r.year))].sort((a, b) => a - b);
  return (
    <div
      className="portfolio-view"
      data-testid="portfolio-view"
      id="workspace-view"
      role="tabpanel"
      aria-labelledby="tab-portfolio"
    >
      <div className="portfolio-actions">
        <button
          type="button"
          data-testid="portfolio-export"
          onClick={() => void exportTables(figures.model, { area, currency: currency ?? '' }, assetName)}
        >
          Export tables (XLSX)
        </button>
      </div>
      <PortfolioChartsRow model={figures.model} charts={charts} area={area} nameOf={nameOf} />
      <PortfolioTotals
        model={figures.model}
        byType={figures.byType}
        byCountry={figures.byCountry}
        area={area}
        currency={currency}
        nameOf={nameOf}
      />
      <PortfolioCoverage coverage={figures.coverage} years={years} heat={heat} assets={assets} />
      <PortfolioLfl model={figures.model} lfl={figures.lfl} />
      <PortfolioIntensity
        intensity={figures.intensity}
        renewables={figures.renewables}
        area={area}
        nameOf={nameOf}
      />
      <MeterFiguresTable />
    </div>
  );
}

/** The view's tables to an XLSX file (saved by main, or downloaded in the browser host). */
async function exportTables(
  model: PortfolioModel,
  units: { area: string; currency: string },
  assetName: (key: string) => string,
): Promise<void> {
  const tables = portfolioTables(model, units, assetName);
  try {
    const written = await bridge.methods['portfolio.export']({ tables });
    if (written?.downloadId) await saveDownload(written.downloadId, written.fileName);
    if (written) notify('info', `Exported ${written.tables} tables to ${written.fileName}`);
  } catch (error) {
    notify('error', `Could not export the tables: ${errorMessage(error)}`);
  }
}
