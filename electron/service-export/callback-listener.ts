import type { IncomingMessage, ServerResponse } from 'node:http';
import { startOneShotListener } from '../net/one-shot-listener';
import { z } from 'zod';
import { ServiceExportError, parseHttpUrl } from './errors';

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
 * Receives the export's one callback on the one-shot listener (127.0.0.1, an ephemeral port, an
 * unguessable path — the path is the credential: the service signs nothing — single use): POST
 * with a JSON body of a bounded size and nothing else. A forged or malformed call is refused
 * without ending the wait, so a local process cannot cancel the real export by knocking first.
 */
export async function startCallbackListener(opts: CallbackListenerOptions): Promise<CallbackListener> {
  const maxBody = opts.maxBodyBytes ?? 4096;
  const listener = await startOneShotListener<{ url: string }>({
    pathPrefix: '/export-callback/',
    timeoutMs: opts.timeoutMs,
    timeoutError: () =>
      new ServiceExportError('timeout', 'The service did not announce the export file in time.'),
    refuse: (res, req, status, text) => refuse(req, res, status, text),
    handle({ req, res, url, settle }) {
      if (url.search !== '') return refuse(req, res, 404, 'not found');
      if (req.method !== 'POST') {
        res.setHeader('Allow', 'POST');
        return refuse(req, res, 405, 'only POST');
      }
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
        settle({ url: fileUrl.toString() });
        res.writeHead(204, { 'Cache-Control': 'no-store', Connection: 'close' }).end();
      });
      req.on('error', () => undefined);
    },
  });
  return {
    callbackUrl: listener.url,
    result: listener.result,
    close: () => listener.cancel(new ServiceExportError('cancelled', 'The export was cancelled.')),
    get listening() {
      return listener.listening;
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
