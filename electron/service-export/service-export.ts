import type { SubmissionApiClient } from '../service-client/service-client';
import { ApiError } from '../service-client/errors';
import { startCallbackListener } from './callback-listener';
import { downloadExportFile, type Downloaded } from './download';
import { ServiceExportError, parseHttpUrl } from './errors';

export type ServiceExportPhase = 'listening' | 'requested' | 'waiting' | 'downloading' | 'done';

export interface ServiceExportProgress {
  phase: ServiceExportPhase;
  /** Since the export was requested. */
  elapsedMs: number;
  /** While downloading. */
  received?: number;
  total?: number | null;
}

export interface ServiceExportOptions {
  client: Pick<SubmissionApiClient, 'requestExport'>;
  entityId: number;
  /** Where downloaded exports are kept. */
  downloadDir: string;
  /**
   * The "public callback URL" setting. A remote service cannot reach a laptop's loopback, so with
   * this set the app sends it as callback_url and does not wait: the user pastes the link delivered
   * there into `downloadExportLink`.
   */
  publicCallbackUrl?: string | null;
  /** How long to wait for the callback (default 10 minutes). */
  timeoutMs?: number;
  maxDownloadBytes?: number;
  downloadTimeoutMs?: number;
  /** How often a 'waiting' progress event repeats (default 1 s). */
  progressEveryMs?: number;
  onProgress?: (progress: ServiceExportProgress) => void;
  signal?: AbortSignal;
  now?: () => number;
}

export type ServiceExportResult =
  ({ kind: 'downloaded' } & Downloaded) | { kind: 'awaiting-link'; callbackUrl: string; message: string };

/**
 * The service's own export: listener up, export requested with its callback_url, the `{url}` awaited
 * with progress and a timeout, then the file downloaded (within its 15 minutes) and kept. The caller
 * offers to import the returned file (`previewImportFile`).
 */
export async function runServiceExport(opts: ServiceExportOptions): Promise<ServiceExportResult> {
  const now = opts.now ?? Date.now;
  const started = now();
  const report = (phase: ServiceExportPhase, extra: Partial<ServiceExportProgress> = {}): void =>
    opts.onProgress?.({ phase, elapsedMs: now() - started, ...extra });

  if (opts.publicCallbackUrl) {
    const callbackUrl = parseHttpUrl(opts.publicCallbackUrl, 'The public callback URL setting').toString();
    await request(opts, callbackUrl);
    report('requested');
    return {
      kind: 'awaiting-link',
      callbackUrl,
      message: `The service will send the export link to ${callbackUrl}. Paste that link into Asset Desk within 15 minutes to download and import the file.`,
    };
  }

  const listener = await startCallbackListener({ timeoutMs: opts.timeoutMs ?? 10 * 60_000 });
  const onAbort = (): void => listener.close();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const ticker = setInterval(() => report('waiting'), opts.progressEveryMs ?? 1000);
  try {
    report('listening');
    await request(opts, listener.callbackUrl);
    report('requested');
    const { url } = await listener.result;
    clearInterval(ticker);
    report('downloading', { received: 0, total: null });
    const downloaded = await download(url, opts, (received, total) =>
      report('downloading', { received, total }),
    );
    report('done');
    return { kind: 'downloaded', ...downloaded };
  } finally {
    clearInterval(ticker);
    opts.signal?.removeEventListener('abort', onAbort);
    listener.close();
  }
}

async function request(opts: ServiceExportOptions, callbackUrl: string): Promise<void> {
  try {
    await opts.client.requestExport(opts.entityId, callbackUrl, opts.signal);
  } catch (error) {
    if (error instanceof ApiError) {
      throw new ServiceExportError('service', `The service refused the export request: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

function download(
  url: string,
  opts: Pick<ServiceExportOptions, 'downloadDir' | 'maxDownloadBytes' | 'downloadTimeoutMs' | 'signal'>,
  onProgress?: (received: number, total: number | null) => void,
): Promise<Downloaded> {
  return downloadExportFile(url, {
    dir: opts.downloadDir,
    ...(opts.maxDownloadBytes ? { maxBytes: opts.maxDownloadBytes } : {}),
    ...(opts.downloadTimeoutMs ? { timeoutMs: opts.downloadTimeoutMs } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
}

/**
 * The pasted-link path: the link the service delivered to the user's public callback URL, downloaded
 * the same way (http(s) only, size-bounded) and kept; the workbook previews it like any workbook
 * (electron/workbook/export-link.ts).
 */
export async function downloadExportLink(
  url: string,
  opts: Pick<ServiceExportOptions, 'downloadDir' | 'maxDownloadBytes' | 'downloadTimeoutMs' | 'signal'> & {
    onProgress?: (received: number, total: number | null) => void;
  },
): Promise<Downloaded> {
  parseHttpUrl(url, 'The export link');
  return download(url, opts, opts.onProgress);
}
