/**
 * Files for the browser host, which has no native dialogs: a chosen file arrives as uploaded bytes,
 * kept in a folder of this app's data dir and registered in PickedFiles like a dialog's pick; an
 * export is written into another such folder and offered once as a browser download by an id.
 * A file's name is only ever data (the download's suggested name, the import's kind): every path is
 * made here from random ids. Folders are 0700 and files 0600 (other local users read nothing); an
 * upload is deleted once read (`workbook.previewImport`), an export once fetched or after 10
 * minutes, and whatever is left when the app closes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { uploadLimitBytes } from '../../shared/bridge/browser-host-files';
import type { PickedFile } from '../../shared/bridge/types';
import { badRequest } from '../../shared/errors';
import type { PickedFiles } from './picked-files';

/** An export not fetched within this is deleted. */
const downloadTtlMs = 10 * 60 * 1000;
/** Workbooks, and meter readings (a CSV or Portfolio Manager's XML). */
const uploadExtensions = new Set(['.xlsx', '.csv', '.xml']);

export interface OfferedDownload {
  file: string;
  name: string;
}

export class BrowserTransfers {
  private readonly downloads = new Map<string, OfferedDownload & { timer: NodeJS.Timeout }>();
  private readonly uploadsDir: string;
  private readonly downloadsDir: string;

  constructor(
    dataDir: string,
    private readonly files: PickedFiles,
  ) {
    const root = join(dataDir, 'transfers');
    this.uploadsDir = join(root, 'uploads');
    this.downloadsDir = join(root, 'downloads');
  }

  /** Clears what an earlier run left behind (its ids are gone with it). */
  async open(): Promise<void> {
    await this.close();
    await mkdir(this.uploadsDir, { recursive: true, mode: 0o700 });
    await mkdir(this.downloadsDir, { recursive: true, mode: 0o700 });
  }

  /** Deletes every upload and export still held (the app is closing). */
  async close(): Promise<void> {
    for (const offered of this.downloads.values()) clearTimeout(offered.timer);
    this.downloads.clear();
    await rm(join(this.uploadsDir, '..'), { recursive: true, force: true });
  }

  /** A chosen file's bytes: stored under a random name keeping only an allowed extension. */
  async upload(name: string, bytes: Buffer): Promise<PickedFile> {
    const extension = extname(name).toLowerCase();
    if (!uploadExtensions.has(extension))
      throw badRequest('Choose an .xlsx or .csv workbook (or, for meter readings, a .csv or .xml file).');
    if (bytes.length > uploadLimitBytes) throw badRequest('That file is larger than 40 MB.');
    const file = join(this.uploadsDir, `${randomUUID()}${extension}`);
    await writeFile(file, bytes, { flag: 'wx', mode: 0o600 });
    return this.files.add(file, basename(name), bytes.length, () => rm(file, { force: true }));
  }

  /** The save "dialog": a fresh path in the downloads folder, named as the host suggested. */
  async pickSaveFile(request: { defaultName: string }): Promise<string> {
    const dir = join(this.downloadsDir, randomUUID());
    await mkdir(dir, { mode: 0o700 });
    const extension = extname(request.defaultName)
      .toLowerCase()
      .replace(/[^.a-z]/g, '');
    return join(dir, `export${extension}`);
  }

  /** Offers a written export once; its id goes to the renderer, which starts the download. */
  offer(file: string, name: string): string {
    const id = randomBytes(24).toString('base64url');
    // The exporters write with the umask's mode; the folder already keeps others out.
    chmodSync(file, 0o600);
    const timer = setTimeout(() => void this.forget(id), downloadTtlMs);
    timer.unref();
    this.downloads.set(id, { file, name, timer });
    return id;
  }

  /** The offered file, once: a second request for the same id finds nothing. */
  take(id: string): OfferedDownload | undefined {
    const offered = this.downloads.get(id);
    if (!offered) return undefined;
    clearTimeout(offered.timer);
    this.downloads.delete(id);
    return { file: offered.file, name: offered.name };
  }

  /** Deletes a served or expired export (its folder was made for it alone). */
  async discard(file: string): Promise<void> {
    await rm(join(file, '..'), { recursive: true, force: true });
  }

  private async forget(id: string): Promise<void> {
    const offered = this.take(id);
    if (offered) await this.discard(offered.file);
  }
}
