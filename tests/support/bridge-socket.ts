/**
 * A bridge client for tests, speaking the browser host's socket as the page does (the host's cookie,
 * the protocol's name and the secret on the handshake, then `{ id, name, args }` per call), with the
 * handshake's headers in the test's hands to try what the host must refuse.
 */
import WebSocket from 'ws';
import type { BrowserHost } from '../../electron/browser-host/server';
import {
  bridgeSocketPath,
  bridgeSocketProtocol,
  secretFromFragment,
} from '../../shared/bridge/browser-host-secret';
import type { BridgeEnvelope } from '../../shared/bridge/envelope';

export interface BridgeSocket {
  call(name: string, args?: unknown): Promise<BridgeEnvelope>;
  /** Sends raw text, as a hostile page might; resolves with the close code and reason. */
  sendRaw(text: string | Buffer): Promise<{ code: number; reason: string }>;
  close(): void;
}

export function hostSecret(host: BrowserHost): string {
  return secretFromFragment(new URL(host.launchUrl).hash) ?? '';
}

/** The host's cookie, as the launch URL sets it. */
export async function hostCookie(host: BrowserHost): Promise<string> {
  const response = await fetch(host.launchUrl, { redirect: 'manual' });
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** Opens the socket; rejects with the handshake's HTTP status when the host refuses it. */
export function openBridgeSocket(
  host: BrowserHost,
  opts: { cookie: string; protocols?: string[]; headers?: Record<string, string> },
): Promise<BridgeSocket> {
  const url = `${host.origin.replace('http', 'ws')}${bridgeSocketPath}`;
  const ws = new WebSocket(url, opts.protocols ?? [bridgeSocketProtocol, hostSecret(host)], {
    headers: { Cookie: opts.cookie, Origin: host.origin, ...opts.headers },
  });
  const waiting = new Map<number, (envelope: BridgeEnvelope) => void>();
  let nextId = 1;
  ws.on('message', (data) => {
    const answer = JSON.parse(String(data)) as { id: number; envelope: BridgeEnvelope };
    waiting.get(answer.id)?.(answer.envelope);
    waiting.delete(answer.id);
  });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      reject(new HandshakeRefused(res.statusCode ?? 0));
      ws.terminate();
    });
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        call: (name, args = {}) =>
          new Promise((done) => {
            const id = nextId++;
            waiting.set(id, done);
            ws.send(JSON.stringify({ id, name, args }));
          }),
        sendRaw: (text) =>
          new Promise((done) => {
            ws.once('close', (code, reason) => done({ code, reason: String(reason) }));
            ws.send(text);
          }),
        close: () => ws.close(),
      }),
    );
  });
}

export class HandshakeRefused extends Error {
  constructor(readonly status: number) {
    super(`The host refused the socket with HTTP ${status}`);
  }
}

/** The handshake's status: 101 when the host opens the socket, else its refusal. */
export async function handshakeStatus(
  host: BrowserHost,
  opts: Parameters<typeof openBridgeSocket>[1],
): Promise<number> {
  try {
    (await openBridgeSocket(host, opts)).close();
    return 101;
  } catch (error) {
    if (error instanceof HandshakeRefused) return error.status;
    throw error;
  }
}
