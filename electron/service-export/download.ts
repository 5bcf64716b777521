import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ServiceExportError, parseHttpUrl } from './errors';
import { deadline, withStallGuard } from '../net/deadline';

export interface DownloadOptions {
  /** Folder the file is kept in (created if missing). */
  dir: string;
  /** Default 100 MB: far above any real export, far below filling a disk. */
  maxBytes?: number;
  /** The whole download, default 5 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (received: number, total: number | null) => void;
  fetch?: typeof fetch;
}

export interface Downloaded {
  file: string;
  bytes: number;
  url: string;
}

const MAX_REDIRECTS = 5;

/** A safe local name from the URL's last segment, always ending in .xlsx, never overwriting. */
function fileNameFor(url: URL): string {
  const last = decodeURIComponent(basename(url.pathname))
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(0, 80);
  const stem = last.replace(/\.xlsx$/i, '').replace(/^[._]+/, '') || 'service-export';
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return `${stem}-${stamp}-${randomBytes(3).toString('hex')}.xlsx`;
}

/**
 * Downloads the export file: http(s) only (each redirect checked again), bounded in size (by the
 * announced length and by counting), bounded in time, written to a temporary name and renamed only
 * when complete and recognisably an XLSX, so a half file is never left where it could be imported.
 */
export async function downloadExportFile(rawUrl: string, opts: DownloadOptions): Promise<Downloaded> {
  // A timer held until the download ends (AbortSignal.timeout is collected with its timer).
  const limit = deadline(opts.timeoutMs ?? 5 * 60_000, opts.signal);
  try {
    return await downloadWithin(rawUrl, opts, limit.signal);
  } finally {
    limit.dispose();
  }
}

/** A service that goes quiet this long in the middle of the file is not coming back. */
const STALL_MS = 60_000;

async function downloadWithin(
  rawUrl: string,
  opts: DownloadOptions,
  signal: AbortSignal,
): Promise<Downloaded> {
  const maxBytes = opts.maxBytes ?? 100 * 1024 * 1024;
  const doFetch = opts.fetch ?? fetch;
  let url = parseHttpUrl(rawUrl, 'The export link');
  let response: Response | undefined;
  try {
    for (let hop = 0; ; hop++) {
      response = await doFetch(
        url,
        withStallGuard({ method: 'GET', redirect: 'manual', signal, headers: { Accept: '*/*' } }, STALL_MS),
      );
      if (response.status < 300 || response.status >= 400) break;
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (!location || hop >= MAX_REDIRECTS)
        throw new ServiceExportError('http', 'The export link redirects too often');
      url = parseHttpUrl(new URL(location, url).toString(), 'The export link’s redirect');
    }
  } catch (error) {
    throw asDownloadError(error, signal, opts.signal);
  }
  if (response.status === 404 || response.status === 410 || response.status === 403) {
    await response.body?.cancel();
    throw new ServiceExportError(
      'expired',
      `The export file is no longer available (HTTP ${response.status}): export links last 15 minutes. Request a new export.`,
    );
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new ServiceExportError('http', `The export file could not be downloaded (HTTP ${response.status})`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel();
    throw new ServiceExportError(
      'too_large',
      `The export file is ${declared} bytes, over the ${maxBytes}-byte limit`,
    );
  }

  await mkdir(opts.dir, { recursive: true, mode: 0o700 });
  const file = join(opts.dir, fileNameFor(url));
  const partial = `${file}.part`;
  let received = 0;
  const total = Number.isFinite(declared) ? declared : null;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) {
        callback(new ServiceExportError('too_large', `The export file is over the ${maxBytes}-byte limit`));
        return;
      }
      opts.onProgress?.(received, total);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      counter,
      createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
      { signal },
    );
    await checkXlsx(partial);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw asDownloadError(error, signal, opts.signal);
  }
  return { file, bytes: received, url: url.toString() };
}

async function checkXlsx(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    if (bytesRead < 4 || head.readUInt32LE(0) !== 0x04034b50) {
      throw new ServiceExportError('not_xlsx', 'The downloaded file is not an Excel workbook');
    }
  } finally {
    await handle.close();
  }
}

function asDownloadError(
  error: unknown,
  signal: AbortSignal,
  userSignal: AbortSignal | undefined,
): ServiceExportError {
  if (error instanceof ServiceExportError) return error;
  if (userSignal?.aborted)
    return new ServiceExportError('cancelled', 'The download was cancelled', { cause: error });
  if (signal.aborted)
    return new ServiceExportError('timeout', 'The download took too long', { cause: error });
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
  return new ServiceExportError('network', `The export file could not be downloaded: ${cause}`, {
    cause: error,
  });
}
