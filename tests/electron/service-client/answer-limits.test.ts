/**
 * What a hostile or broken service can make the client do, over real HTTP on 127.0.0.1: answers too
 * large to hold, relative and inflated `link` headers, a service that never answers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exchangeCode } from '../../../electron/auth/oauth-token';
import { AuthError } from '../../../electron/auth/errors';
import { ApiError } from '../../../electron/service-client/errors';
import { SubmissionApiClient } from '../../../electron/service-client/service-client';
import { maxListingPages } from '../../../electron/service-client/page-plan';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Served {
  baseUrl: string;
  requests: string[];
  /** Bytes the server managed to write before the client stopped reading. */
  written: () => number;
}

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of servers.splice(0)) await close();
});

async function serve(handler: Handler): Promise<Served> {
  const requests: string[] = [];
  let written = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const write = res.write.bind(res);
    res.write = ((chunk: Buffer | string, ...rest: never[]) => {
      written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      return write(chunk, ...rest);
    }) as typeof res.write;
    handler(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    written: () => written,
  };
}

/** Streams `total` bytes of a JSON array of strings in 1 MB chunks, as long as the client reads. */
function endlessJson(res: ServerResponse, total: number, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  const chunk = Buffer.from(`"${'x'.repeat(1024 * 1024 - 4)}",`);
  let sent = 0;
  res.write('[');
  const pump = (): void => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end('"end"]');
  };
  res.on('error', () => undefined);
  pump();
}

const client = (baseUrl: string, extra: Partial<ConstructorParameters<typeof SubmissionApiClient>[0]> = {}) =>
  new SubmissionApiClient({ baseUrl, getToken: () => 't', retries: 0, ...extra });

const asset = (id: number) => ({ service_asset_id: id, partners_id: id, name: `A${id}` });

describe('answers are read with a limit', () => {
  it('a listing page far beyond its limit fails with a clear error, without reading it all', async () => {
    const s = await serve((_req, res) => endlessJson(res, 600 * 1024 * 1024));
    const error = await client(s.baseUrl)
      .listAssetsPage(1, 1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('bad_response');
    expect((error as ApiError).message).toMatch(/page 1 of the assets is larger than 32 MB/);
    // The client stopped reading: the server could not write much past the limit.
    expect(s.written()).toBeLessThan(100 * 1024 * 1024);
  });

  it('an announced length beyond the limit is refused before reading', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) });
      res.write('[');
    });
    const error = await client(s.baseUrl)
      .listEntities()
      .catch((e: unknown) => e);
    expect((error as ApiError).message).toMatch(/the entity list is larger than 8 MB/);
  });

  it('the OAuth token endpoint cannot send more than a token answer', async () => {
    const s = await serve((_req, res) => endlessJson(res, 64 * 1024 * 1024));
    const error = await exchangeCode({
      authUrl: s.baseUrl,
      clientId: 'c',
      clientSecret: 's',
      code: 'x',
      redirectUri: 'http://127.0.0.1/cb',
      codeVerifier: 'v'.repeat(43),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toMatch(/larger than 256 KB/);
    expect(s.written()).toBeLessThan(32 * 1024 * 1024);
  });
});

describe('the listing follows its link header within bounds', () => {
  /** Three assets, one a page, with the headers `link` makes of the request. */
  const listing =
    (link: (page: number) => string, total: string | undefined): Handler =>
    (req, res) => {
      const page = Number(new URL(req.url ?? '', 'http://x').searchParams.get('page'));
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'per-page': '1',
        link: link(page),
      };
      if (total !== undefined) headers['total'] = total;
      res.writeHead(200, headers);
      res.end(JSON.stringify(page <= 3 ? [asset(page)] : []));
    };

  it('resolves a relative link against the request', async () => {
    const s = await serve(
      listing((page) => (page < 3 ? `</api/v1/entities/1/assets?page=3&per_page=1>; rel="last"` : ''), '3'),
    );
    const assets = await client(s.baseUrl).listAllAssets(1, { perPage: 1 });
    expect(assets.map((a) => a.service_asset_id)).toEqual([1, 2, 3]);
    const page = await client(s.baseUrl).listAssetsPage(1, 1, 1);
    expect(page.meta.links.last).toBe(`${s.baseUrl}/api/v1/entities/1/assets?page=3&per_page=1`);
  });

  it('stops at what total and per-page allow when the link claims a million pages', async () => {
    const s = await serve(listing(() => `<./assets?page=1000000&per_page=1>; rel="last"`, '3'));
    const assets = await client(s.baseUrl).listAllAssets(1, { perPage: 1 });
    expect(assets.map((a) => a.service_asset_id)).toEqual([1, 2, 3]);
    expect(s.requests).toHaveLength(3);
  });

  it('refuses a listing past the hard cap when no total bounds it', async () => {
    const s = await serve(listing(() => `<./assets?page=1000000&per_page=1>; rel="last"`, undefined));
    const error = await client(s.baseUrl)
      .listAllAssets(1, { perPage: 1 })
      .catch((e: unknown) => e);
    expect((error as ApiError).kind).toBe('bad_response');
    expect((error as ApiError).message).toContain(`at most ${maxListingPages.toLocaleString('en')}`);
    expect(s.requests).toHaveLength(1);
  });
});

describe('a hung service', () => {
  it('fails a call once, at one overall deadline, not after every attempt times out in turn', async () => {
    const s = await serve(() => undefined);
    const retries: number[] = [];
    const error = await client(s.baseUrl, {
      retries: 4,
      timeoutMs: 400,
      deadlineMs: 600,
      retryBaseDelayMs: 300,
      onRetry: ({ attempt }) => retries.push(attempt),
    })
      .listEntities()
      .catch((e: unknown) => e);
    expect((error as ApiError).kind).toBe('timeout');
    // Five attempts of 400 ms each before; now the first one's timeout leaves no time for another.
    expect(s.requests).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it('tells of each retry, and a cancel ends the wait at once', async () => {
    let calls = 0;
    const s = await serve((_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(503).end();
        return;
      }
      // Hang from the second attempt on.
    });
    const retries: number[] = [];
    const cancel = new AbortController();
    const pending = client(s.baseUrl, {
      retries: 2,
      retryBaseDelayMs: 10,
      onRetry: ({ attempt }) => {
        retries.push(attempt);
        setTimeout(() => cancel.abort(), 50);
      },
    })
      .listEntities(cancel.signal)
      .catch((e: unknown) => e);
    const error = await pending;
    expect((error as ApiError).kind).toBe('cancelled');
    expect(retries).toEqual([1]);
  });
});
