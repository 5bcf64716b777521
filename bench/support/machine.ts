import { cpus, freemem, loadavg, totalmem } from 'node:os';

const GB = 1024 ** 3;

/**
 * The machine a run was measured on, printed before any figure: absolute times only compare
 * between runs on the same machine at a similar load, the ratios to floors between any two.
 */
export function machineLine(): string {
  const cores = cpus();
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  return (
    `machine: ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${cores.length} cores, ` +
    `${(totalmem() / GB).toFixed(1)} GB (${(freemem() / GB).toFixed(1)} GB free), ` +
    `load average ${load} (1, 5, 15 min); Node ${process.versions.node}, ${process.platform} ${process.arch}`
  );
}

/** The load average over the last minute, printed beside each bench (other jobs share the cores). */
export function loadLine(): string {
  return `load average ${loadavg()[0]?.toFixed(2) ?? '?'} over the last minute, ${cpus().length} cores`;
}

/** This process's peak resident memory so far (the kernel's high-water mark, not a sample). */
export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}
