import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startCallbackListener } from '../../../electron/service-export/callback-listener';
import { downloadExportFile } from '../../../electron/service-export/download';
import { ServiceExportError } from '../../../electron/service-export/errors';
import {
  runServiceExport,
  type ServiceExportProgress,
} from '../../../electron/service-export/service-export';
import { importFromExportLink } from '../../../electron/workbook/export-link';
import { SubmissionApiClient } from '../../../electron/service-client/service-client';
import { previewImportFile } from '../../../electron/workbook/workspace-workbook';
import { startHarness, validAsset, type Harness } from '../../sandbox/helpers';
import { tempWorkspace } from '../../../support/sync-harness';
import { tmpDir } from '../../../support/workbook-fixtures';
import { RemoteMerge } from '../../../electron/sync/remote-merge';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function sandbox(): Promise<{ h: Harness; client: SubmissionApiClient }> {
  const h = await startHarness({ callbackRetry: { baseDelayMs: 10 } });
  cleanups.push(() => h.close());
  for (const n of [1, 2, 3])
    await h.api('POST', `/api/v1/entities/${h.entityId}/assets`, { body: validAsset(n) });
  const client = new SubmissionApiClient({ baseUrl: h.baseUrl, getToken: () => h.token });
  return { h, client };
}

/** A workspace pulled from the sandbox: what the analyst has before fetching the service's export. */
async function pulledWorkspace(client: SubmissionApiClient, entityId: number) {
  const { store } = tempWorkspace();
  cleanups.push(() => store.close());
  for (const asset of await client.listAllAssets(entityId)) new RemoteMerge(store).applyRemote(asset);
  return store;
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the service export through the callback listener', () => {
  it('end to end against the sandbox: request, callback, download, preview', async () => {
    const { h, client } = await sandbox();
    const dir = tmpDir();
    const progress: ServiceExportProgress[] = [];
    const result = await runServiceExport({
      client,
      entityId: h.entityId,
      downloadDir: dir,
      timeoutMs: 20_000,
      progressEveryMs: 20,
      onProgress: (p) => progress.push(p),
    });
    expect(result.kind).toBe('downloaded');
    if (result.kind !== 'downloaded') return;
    expect(result.file.startsWith(dir)).toBe(true);
    expect(result.bytes).toBeGreaterThan(1000);
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    const phases = progress.map((p) => p.phase);
    expect(phases[0]).toBe('listening');
    expect(phases).toContain('requested');
    expect(phases).toContain('downloading');
    expect(phases.at(-1)).toBe('done');

    const store = await pulledWorkspace(client, h.entityId);
    const plan = await previewImportFile(store, result.file);
    expect(plan.issues).toEqual([]);
    expect(plan.counts).toEqual({ new: 0, changed: 0, unchanged: 3, rejected: 0 });
  });

  it('with a public callback URL: the link delivered there is pasted, downloaded and previewed', async () => {
    const { h, client } = await sandbox();
    const delivered: string[] = [];
    // Stands in for the endpoint the user controls (a relay, a webhook inbox).
    const inbox = await listen((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        delivered.push((JSON.parse(body) as { url: string }).url);
        res.writeHead(200).end();
      });
    });
    const result = await runServiceExport({
      client,
      entityId: h.entityId,
      downloadDir: tmpDir(),
      publicCallbackUrl: `${inbox.url}/hooks/asset-desk`,
    });
    expect(result).toMatchObject({ kind: 'awaiting-link', callbackUrl: `${inbox.url}/hooks/asset-desk` });
    for (let i = 0; i < 200 && delivered.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    const store = await pulledWorkspace(client, h.entityId);
    const imported = await importFromExportLink(delivered[0] ?? '', { store, downloadDir: tmpDir() });
    expect(imported.plan.counts).toEqual({ new: 0, changed: 0, unchanged: 3, rejected: 0 });
    await expect(
      importFromExportLink('file:///etc/passwd', { store, downloadDir: tmpDir() }),
    ).rejects.toMatchObject({
      kind: 'bad_url',
    });
  });

  it('a service refusal is reported, and the listener closed', async () => {
    const { h } = await sandbox();
    const client = new SubmissionApiClient({ baseUrl: h.baseUrl, getToken: () => 'wrong-token' });
    await expect(
      runServiceExport({ client, entityId: h.entityId, downloadDir: tmpDir(), timeoutMs: 5000 }),
    ).rejects.toMatchObject({ kind: 'service' });
  });
});

describe('the callback listener refuses forged callbacks', () => {
  it('wrong path, GET, wrong type, huge body, extra keys and non-http urls; then accepts the real one once', async () => {
    const listener = await startCallbackListener({ timeoutMs: 10_000 });
    cleanups.push(() => listener.close());
    const url = new URL(listener.callbackUrl);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toMatch(/^\/export-callback\/[A-Za-z0-9_-]{43}$/);
    const post = (target: string, body: string, type = 'application/json') =>
      fetch(target, { method: 'POST', headers: { 'content-type': type }, body }).then(
        (r) => r.status,
        () => 'connection closed',
      );
    const good = JSON.stringify({ url: 'http://127.0.0.1:9/file.xlsx' });

    expect(await post(`${url.origin}/export-callback/guess`, good)).toBe(404);
    expect(await post(`${listener.callbackUrl}?x=1`, good)).toBe(404);
    expect((await fetch(listener.callbackUrl)).status).toBe(405);
    expect(await post(listener.callbackUrl, 'url=http://x/y', 'application/x-www-form-urlencoded')).toBe(415);
    expect([413, 'connection closed']).toContain(
      await post(listener.callbackUrl, JSON.stringify({ url: `http://x/${'a'.repeat(1024 * 1024)}` })),
    );
    expect(await post(listener.callbackUrl, JSON.stringify({ url: 'file:///etc/passwd' }))).toBe(400);
    expect(await post(listener.callbackUrl, JSON.stringify({ url: 'javascript:alert(1)' }))).toBe(400);
    expect(await post(listener.callbackUrl, JSON.stringify({ url: 'http://x/y', extra: 1 }))).toBe(400);
    expect(await post(listener.callbackUrl, '{not json')).toBe(400);
    expect(listener.listening).toBe(true); // forged calls do not end the wait

    expect(await post(listener.callbackUrl, good)).toBe(204);
    await expect(listener.result).resolves.toEqual({ url: 'http://127.0.0.1:9/file.xlsx' });
    expect(await post(listener.callbackUrl, good)).not.toBe(204);
  });

  it('times out with a clear error', async () => {
    const listener = await startCallbackListener({ timeoutMs: 50 });
    await expect(listener.result).rejects.toMatchObject({ kind: 'timeout' });
    expect(listener.listening).toBe(false);
  });
});

describe('the download is bounded', () => {
  it('refuses non-http links and redirects, oversize files (declared or not), expired links', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 1);
    big.writeUInt32LE(0x04034b50, 0);
    const server = await listen((req, res) => {
      if (req.url === '/declared') res.writeHead(200, { 'content-length': big.length }).end(big);
      else if (req.url === '/chunked') {
        res.writeHead(200);
        res.write(big.subarray(0, 1024 * 1024));
        res.end(big.subarray(1024 * 1024));
      } else if (req.url === '/gone') res.writeHead(410).end();
      else if (req.url === '/to-file') res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      else if (req.url === '/text') res.writeHead(200).end('hello');
      else res.writeHead(200).end(big.subarray(0, 4096));
    });
    const dir = tmpDir();
    const get = (path: string, maxBytes = 1024 * 1024) =>
      downloadExportFile(`${server.url}${path}`, { dir, maxBytes }).then(
        () => 'ok',
        (e: unknown) => (e instanceof ServiceExportError ? e.kind : String(e)),
      );
    expect(await get('/declared')).toBe('too_large');
    expect(await get('/chunked')).toBe('too_large');
    expect(await get('/gone')).toBe('expired');
    expect(await get('/to-file')).toBe('bad_url');
    expect(await get('/text')).toBe('not_xlsx');
    expect(await get('/small.xlsx')).toBe('ok');
    await expect(downloadExportFile('ftp://example.com/x.xlsx', { dir })).rejects.toMatchObject({
      kind: 'bad_url',
    });
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});
