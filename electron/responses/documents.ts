import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, extname, isAbsolute } from 'node:path';
import type { DocumentUpload } from '../sync/api-client';

/**
 * What the service accepts as evidence (the portal's rules, mirrored by the sandbox): checked
 * here first, so the analyst hears at once rather than after an upload of up to 10 MB.
 */
export const maxDocumentBytes = 10 * 1024 * 1024;
export const documentTypesByExtension: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export class DocumentFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentFileError';
  }
}

/**
 * A file the analyst picked, checked in main: an absolute path to a regular file (not a folder,
 * device or pipe) of an accepted type, neither empty nor over the limit.
 */
export async function documentFromPath(filePath: string, variable?: string): Promise<DocumentUpload> {
  if (!isAbsolute(filePath)) throw new DocumentFileError('The document path must be absolute.');
  const filename = basename(filePath);
  let info;
  try {
    info = await stat(filePath);
  } catch {
    throw new DocumentFileError(`${filename}: the file cannot be read (it may have been moved or deleted).`);
  }
  if (!info.isFile()) throw new DocumentFileError(`${filename} is not a regular file.`);
  if (info.size === 0) throw new DocumentFileError(`${filename} is empty.`);
  if (info.size > maxDocumentBytes) {
    const mb = (info.size / 1024 / 1024).toFixed(1);
    throw new DocumentFileError(`${filename} is ${mb} MB; evidence documents may be at most 10 MB.`);
  }
  const contentType = documentTypesByExtension[extname(filename).toLowerCase()];
  if (!contentType) {
    const allowed = Object.keys(documentTypesByExtension).join(', ');
    throw new DocumentFileError(
      `${filename}: this type of file is not accepted as evidence (allowed: ${allowed}).`,
    );
  }
  return {
    filename,
    contentType,
    size: info.size,
    variable,
    content: () => createReadStream(filePath, { highWaterMark: 256 * 1024 }),
  };
}
