/**
 * The browser host's bridge calls over one WebSocket: a message per call, answers matched by id. A
 * closed socket fails the calls it carried; the next call opens another. A POST per call cost the
 * page ~3 ms of Chromium's request and response machinery (0.5 ms here), and after a keypress its
 * answer waited behind the next frame in three tasks instead of one.
 */
import { bridgeSocketPath, bridgeSocketProtocol } from '../../../shared/bridge/browser-host-secret';
import { BridgeCallError, unwrapEnvelope, type BridgeEnvelope } from '../../../shared/bridge/envelope';

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export function createSocketCalls(secret: string): (name: string, args: unknown) => Promise<unknown> {
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let socket: WebSocket | undefined;
  let opening: Promise<WebSocket> | undefined;

  const fail = (reason: string): void => {
    for (const call of waiting.values()) call.reject(new BridgeCallError('internal', reason));
    waiting.clear();
  };

  const open = (): Promise<WebSocket> => {
    opening ??= new Promise<WebSocket>((resolve, reject) => {
      const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${bridgeSocketPath}`;
      const ws = new WebSocket(url, [bridgeSocketProtocol, secret]);
      ws.onopen = () => {
        socket = ws;
        resolve(ws);
      };
      ws.onmessage = (event) => answer(event.data);
      ws.onclose = (event) => {
        socket = undefined;
        opening = undefined;
        const reason = `The app host closed the connection${event.reason ? ` (${event.reason})` : ''}`;
        reject(new BridgeCallError('internal', reason));
        fail(reason);
      };
    });
    return opening;
  };

  const answer = (data: unknown): void => {
    if (typeof data !== 'string') return;
    let message: { id?: unknown; envelope?: unknown };
    try {
      message = JSON.parse(data) as { id?: unknown; envelope?: unknown };
    } catch (error) {
      // A JSON text main spliced in raw from a damaged stored text: the host writes the id first,
      // so the call it answered fails with what went wrong instead of waiting for ever.
      const id = /^\{"id":(\d+),/.exec(data)?.[1];
      message = { id: Number(id), envelope: unreadable(error) };
    }
    const call = typeof message.id === 'number' ? waiting.get(message.id) : undefined;
    if (!call) return;
    waiting.delete(message.id as number);
    try {
      call.resolve(unwrapEnvelope(message.envelope));
    } catch (error) {
      call.reject(error as Error);
    }
  };

  const send = (ws: WebSocket, name: string, args: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, name, args: args ?? {} }));
    });

  // An open socket sends at once, inside the keypress that made the call.
  return (name, args) => (socket ? send(socket, name, args) : open().then((ws) => send(ws, name, args)));
}

function unreadable(error: unknown): BridgeEnvelope {
  return {
    ok: false,
    error: { code: 'internal', message: `The app host's answer could not be read (${String(error)})` },
  };
}
