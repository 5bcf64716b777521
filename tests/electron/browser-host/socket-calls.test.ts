/**
 * The socket's calls are held to a nesting depth before they are parsed (issue 29: 9.5 MB of `[`
 * held main for 8.5 s in JSON.parse). Over a real `ws` server on 127.0.0.1.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { answerSocketCalls } from '../../../electron/browser-host/socket-calls';
import { MAX_JSON_DEPTH } from '../../../shared/text/json-depth';

let server: WebSocketServer | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function socket(): Promise<WebSocket> {
  const calls: unknown[] = [];
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (ws) =>
    answerSocketCalls(
      ws,
      (name, args) => {
        calls.push(args);
        return Promise.resolve({ name });
      },
      { idleMs: 60_000 },
    ),
  );
  await new Promise((resolve) => server?.once('listening', resolve));
  const ws = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return ws;
}

const call = (depth: number) =>
  `{"id":1,"name":"app.info","args":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('a bridge call nested too deep', () => {
  it('is answered at the limit and closes the socket past it, unparsed', async () => {
    const ws = await socket();
    const answer = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
    ws.send(call(MAX_JSON_DEPTH));
    expect(JSON.parse(await answer)).toMatchObject({ id: 1 });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(call(MAX_JSON_DEPTH + 1));
    expect(await closed).toBe(1008);
  });

  it('9.5 MB of "[" closes the socket', async () => {
    const ws = await socket();
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('['.repeat(9_500_000));
    expect(await closed).toBe(1008);
  });
});
