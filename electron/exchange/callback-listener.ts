import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ExchangeError, parseHttpUrl } from './errors';

export interface CallbackListener {
  /** `http://127.0.0.1:{port}/export-callback/{random}`: the callback_url of one export request. */
  callbackUrl: string;
  /** The file address the service announced; rejects on timeout or close. Settles once. */
  result: Promise<{ url: string }>;
  /** Stops listening; a pending result rejects as cancelled. */
  close(): void;
  readonly listening: boolean;
}

export interface CallbackListenerOptions {
  timeoutMs: number;
  /** The notice is `{"url": "..."}`: a few hundred bytes. Default 4 KB. */
  maxBodyBytes?: number;
}

/** The spec's callback body: JSON with `url` and nothing else. */
const noticeSchema = z.strictObject({ url: z.string().min(1).max(2048) });

/**
 * Receives the export's one callback on the loopback interface: 127.0.0.1 only, an ephemeral port,
 * an unguessable path (the path is the credential: the service signs nothing), POST with a JSON
 * body of a bounded size, and a single use. A forged or malformed call is refused without ending the
 * wait, so a local process cannot cancel the real export by knocking first.
 */
export async function startCallbackListener(opts: CallbackListenerOptions): Promise<CallbackListener> {
  const maxBody = opts.maxBodyBytes ?? 4096;
  const path = `/export-callback/${randomBytes(24).toString('base64url')}`;
  let settled = false;
  let resolveResult!: (value: { url: string }) => void;
  let rejectResult!: (error: ExchangeError) => void;
  const result = new Promise<{ url: string }>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  // A caller that gave up never awaits the rejection; that is not an unhandled error.
  result.catch(() => undefined);

  const server = createServer((req, res) => handle(req, res));
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  let hostHeader = '';

  const shutDown = (): void => {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
  };
  const finish = (outcome: { url: string } | ExchangeError): void => {
    if (settled) return;
    settled = true;
    if (outcome instanceof ExchangeError) rejectResult(outcome);
    else resolveResult(outcome);
  };

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.headers.host !== hostHeader) return refuse(req, res, 421, 'wrong host');
    if (url.pathname !== path || url.search !== '') return refuse(req, res, 404, 'not found');
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return refuse(req, res, 405, 'only POST');
    }
    if (settled) return refuse(req, res, 410, 'already used');
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') return refuse(req, res, 415, 'JSON only');
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > maxBody) return refuse(req, res, 413, 'body too large');

    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBody) {
        over = true;
        chunks.length = 0;
        refuse(req, res, 413, 'body too large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      let json: unknown;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return refuse(req, res, 400, 'body is not JSON');
      }
      const notice = noticeSchema.safeParse(json);
      if (!notice.success) return refuse(req, res, 400, 'body must be {"url": "..."}');
      let fileUrl: URL;
      try {
        fileUrl = parseHttpUrl(notice.data.url, 'The announced file');
      } catch {
        return refuse(req, res, 400, 'url must be http(s)');
      }
      res.once('finish', shutDown);
      res.writeHead(204, { 'Cache-Control': 'no-store', Connection: 'close' }).end();
      finish({ url: fileUrl.toString() });
    });
    req.on('error', () => undefined);
  }

  const timer = setTimeout(() => {
    finish(new ExchangeError('timeout', 'The service did not announce the export file in time.'));
    shutDown();
  }, opts.timeoutMs);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    clearTimeout(timer);
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  hostHeader = `127.0.0.1:${port}`;

  return {
    callbackUrl: `http://${hostHeader}${path}`,
    result,
    close() {
      finish(new ExchangeError('cancelled', 'The export was cancelled.'));
      shutDown();
    },
    get listening() {
      return server.listening;
    },
  };
}

/**
 * Answers a refused call and stops reading it. The body of a refused request is not read on: the
 * connection closes after the answer, so a huge body costs the sender, not us.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'close',
  });
  res.end(text, () => {
    // Let a small in-flight body drain so the client reads the status; cut anything big.
    req.unpipe();
    req.destroy();
  });
}
