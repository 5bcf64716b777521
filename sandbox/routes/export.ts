import { randomBytes } from 'node:crypto';
import { createReadStream, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accessRules } from '../../shared/auth/scopes';
import { routeAccess } from '../auth/guard';
import { ApiError, badRequest, notFound } from '../http/errors';
import { redactCallbackUrl } from '../http/log-redaction';
import { makePrivateDir } from '../store/private-files';
import { assetResource } from '../model/asset-model';
import { writeAssetWorkbook } from '../../shared/workbook/write-workbook';
import { reportingYears } from '../../shared/workbook/layout';
import type { SandboxContext } from '../context';
import { errorMessage } from '../../shared/errors';

const formBody = z.object({ callback_url: z.string().min(1) });
const fileParams = z.object({ export_id: z.string().regex(/^[A-Za-z0-9_-]{20,}$/), file_name: z.string() });

function isForm(contentType: string | undefined): boolean {
  const t = contentType ?? '';
  return t.startsWith('application/x-www-form-urlencoded') || t.startsWith('multipart/form-data');
}

/** Only http(s): the sandbox must not be talked into file:, data: or other schemes. */
export function parseCallbackUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('callback_url must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest('callback_url must be an http or https URL');
  if (url.username || url.password) throw badRequest('callback_url must not carry credentials');
  return url;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/**
 * POSTs `{ url }` to the callback, retrying with exponential backoff: the caller's receiver may be
 * briefly down, and the export is useless if the notice is lost. Any 2xx counts as delivered.
 */
export async function deliverCallback(
  ctx: SandboxContext,
  callbackUrl: string,
  fileUrl: string,
): Promise<boolean> {
  const { attempts, baseDelayMs, timeoutMs } = ctx.settings.callbackRetry;
  const logged = redactCallbackUrl(callbackUrl);
  for (let attempt = 1; attempt <= attempts && !ctx.shutdown.aborted; attempt++) {
    try {
      const res = await fetch(callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: fileUrl }),
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), ctx.shutdown]),
      });
      await res.body?.cancel();
      if (res.ok) {
        ctx.log.info({ callbackUrl: logged, attempt }, 'export callback delivered');
        return true;
      }
      ctx.log.warn({ callbackUrl: logged, attempt, status: res.status }, 'export callback refused');
    } catch (err) {
      ctx.log.warn({ callbackUrl: logged, attempt, err: errorMessage(err) }, 'export callback failed');
    }
    if (attempt < attempts) await sleep(baseDelayMs * 2 ** (attempt - 1), ctx.shutdown);
  }
  ctx.log.error({ callbackUrl: logged, attempts }, 'export callback given up');
  return false;
}

export function registerExportRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  const exportDir = path.join(store.dataDir, 'exports');

  app.post(
    '/api/v1/entities/:entity_id/asset_spreadsheet_export',
    routeAccess(store.admin, accessRules.export),
    async (request) => {
      // The spec sends callback_url as a form field; a JSON body is a client bug worth surfacing.
      if (!isForm(request.headers['content-type'])) {
        throw badRequest(
          'callback_url must be sent as a form field (application/x-www-form-urlencoded or multipart/form-data)',
        );
      }
      const parsed = formBody.safeParse(request.body);
      if (!parsed.success) throw badRequest('The form field callback_url is required');
      const callback = parseCallbackUrl(parsed.data.callback_url);
      const entityId = request.entityId ?? -1;
      const id = randomBytes(24).toString('base64url');
      const fileName = `assets-entity-${entityId}.xlsx`;
      const fileUrl = `${request.protocol}://${request.host}/exports/${id}/${fileName}`;
      const createdAt = new Date(ctx.now()).toISOString();
      store.exports.insert({
        id,
        entity_id: entityId,
        file_name: fileName,
        callback_url: callback.toString(),
        status: 'building',
        created_at: createdAt,
        expires_at: ctx.now() + ctx.settings.exportTtlMs,
      });
      // Snapshot now, so the file reflects the pool at request time even if writes follow.
      const assets = store.assets
        .all(entityId)
        .map((s) => assetResource(s, { validations: false, nestedValidations: false }));
      const job = (async () => {
        try {
          makePrivateDir(exportDir);
          const file = await open(path.join(exportDir, `${id}.xlsx`), 'w', 0o600);
          await writeAssetWorkbook(file, assets, {
            years: reportingYears(assets, ctx.settings.assessmentYear()),
            title: `Assets of entity ${entityId}`,
          }).finally(() => file.close());
          // The 15 minutes run from when the file can be fetched, not from the request.
          store.exports.setStatus(id, 'ready', ctx.now() + ctx.settings.exportTtlMs);
        } catch (err) {
          ctx.log.error({ err, exportId: id }, 'export build failed');
          if (!ctx.shutdown.aborted) store.exports.setStatus(id, 'failed', ctx.now());
          return;
        }
        await deliverCallback(ctx, callback.toString(), fileUrl);
      })();
      ctx.background.add(job);
      void job.finally(() => ctx.background.delete(job));
      return {
        status: 'queued',
        export_id: id,
        callback_url: callback.toString(),
        expires_in: Math.round(ctx.settings.exportTtlMs / 1000),
      };
    },
  );

  // Like a pre-signed download link: the unguessable id is the credential, so no token is needed.
  app.get('/exports/:export_id/:file_name', async (request, reply) => {
    const params = fileParams.safeParse(request.params);
    if (!params.success) throw notFound('Export not found');
    const rec = store.exports.get(params.data.export_id);
    if (!rec || rec.file_name !== params.data.file_name || rec.status === 'failed')
      throw notFound('Export not found');
    if (rec.status !== 'ready') throw notFound('Export not ready yet');
    if (ctx.now() >= rec.expires_at) {
      rmSync(path.join(exportDir, `${rec.id}.xlsx`), { force: true });
      throw new ApiError(410, 'gone', 'This export has expired; request a new one');
    }
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${rec.file_name}"`)
      .header('cache-control', 'no-store')
      .send(createReadStream(path.join(exportDir, `${rec.id}.xlsx`)));
  });
}
