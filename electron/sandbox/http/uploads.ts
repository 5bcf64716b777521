import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { ApiError } from './errors';

export interface UploadedFile {
  fieldname: string;
  filename: string;
  mimetype: string;
  content: Buffer;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Files of a multipart body with their names and types ('keyValues' bodies keep only bytes). */
    uploads: UploadedFile[] | null;
  }
}

/**
 * The multipart plugin's onFile: buffers the part (as its default would) and records its metadata,
 * turning the plugin's terse size error into one a user can act on.
 */
export async function collectUpload(this: FastifyRequest, part: MultipartFile): Promise<void> {
  let content: Buffer;
  try {
    content = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
      const limit = this.routeOptions.config.multipartOptions?.limits?.fileSize;
      const mb = limit ? ` of ${Math.round(limit / 1024 / 1024)} MB` : '';
      throw new ApiError(
        413,
        'payload_too_large',
        `${part.filename || 'The file'} is larger than the limit${mb}.`,
      );
    }
    throw error;
  }
  (this.uploads ??= []).push({
    fieldname: part.fieldname,
    filename: part.filename,
    mimetype: part.mimetype,
    content,
  });
}
