/**
 * The browser host's two routes beside the bridge, standing in for the native dialogs: an upload of
 * a chosen file's bytes (answered like `files.pick`) and the one-time download of an export. Both
 * live under /bridge/, so the host's hook demands the per-run secret header, the Host and the Origin
 * as for every bridge call; the page fetches them (a plain link could not send the header).
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BridgeEnvelope } from '../../shared/bridge/envelope';
import { toBridgeErrorBody } from '../bridge/errors';
import { downloadRoute, uploadLimitBytes, uploadRoute } from '../../shared/bridge/browser-host-files';
import type { BrowserTransfers } from '../files/browser-transfers';

const uploadQuery = z.object({ name: z.string().min(1).max(255) }).strict();
const downloadParams = z.object({ id: z.string().regex(/^[\w-]{16,64}$/) }).strict();

export function registerFileRoutes(app: FastifyInstance, transfers: BrowserTransfers): void {
  // Raw bytes, counted against the route's limit while they arrive (never read past it).
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(uploadRoute, { bodyLimit: uploadLimitBytes }, async (request, reply) => {
    const query = uploadQuery.safeParse(request.query);
    if (!query.success || !Buffer.isBuffer(request.body)) {
      const envelope: BridgeEnvelope = {
        ok: false,
        error: { code: 'bad_request', message: 'Send the file as application/octet-stream with its name.' },
      };
      return reply.code(400).send(envelope);
    }
    try {
      const picked = await transfers.upload(query.data.name, request.body);
      const envelope: BridgeEnvelope = { ok: true, result: picked };
      return reply.send(envelope);
    } catch (error) {
      const envelope: BridgeEnvelope = { ok: false, error: toBridgeErrorBody(error) };
      return reply.code(envelope.error.code === 'bad_request' ? 400 : 500).send(envelope);
    }
  });

  app.get(`${downloadRoute}/:id`, async (request, reply) => {
    const params = downloadParams.safeParse(request.params);
    const offered = params.success ? transfers.take(params.data.id) : undefined;
    if (!offered) {
      return reply.code(404).send({ code: 'not_found', message: 'That download is gone: export again.' });
    }
    try {
      const bytes = await readFile(offered.file);
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Disposition', attachment(offered.name))
        .send(bytes);
    } finally {
      await transfers.discard(offered.file);
    }
  });
}

/** RFC 6266: an ASCII fallback and the exact name in UTF-8. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
