/**
 * The page's bridge calls over the browser host's socket: each message is one call,
 * `{ id, name, args }`, each answer `{ id, envelope }`, so answers can come back in any order. The
 * dispatcher is the one every host uses: it checks the name and parses the arguments.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { bridgeSocketProtocol } from '../../shared/bridge/browser-host-secret';
import { dispatchToEnvelope, type Dispatch } from '../bridge/dispatch';
import { answerMessage } from './answer-message';
import { jsonNestsDeeperThan } from '../../shared/text/json-depth';

const callMessage = z
  .object({
    id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    name: z.string().max(200),
    args: z.unknown(),
  })
  .strict();

/** Policy violation: the socket carries bridge calls and nothing else. */
const malformedCall = 1008;
/** Normal closure: an idle socket; the page opens another with its next call. */
const idleClose = 1000;

/** The secret the page offered beside the protocol's name on the handshake, if it offered just that. */
export function socketSecret(headers: IncomingHttpHeaders): string | undefined {
  const offered = headers['sec-websocket-protocol'];
  if (typeof offered !== 'string') return undefined;
  const [name, secret, ...more] = offered.split(',').map((part) => part.trim());
  return name === bridgeSocketProtocol && more.length === 0 ? secret : undefined;
}

/**
 * Answers the socket's calls. A socket with no call in flight and none sent for `idleMs` is closed
 * (a long sync keeps its socket: its call is in flight), so sockets a client opens and leaves are
 * not held for ever.
 */
export function answerSocketCalls(socket: WebSocket, dispatch: Dispatch, opts: { idleMs: number }): void {
  let inFlight = 0;
  let idle: NodeJS.Timeout | undefined;
  const waitIdle = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      const minutes = Math.max(1, Math.round(opts.idleMs / 60_000));
      socket.close(idleClose, `Idle for ${minutes} min: closed (the next call opens another)`);
    }, opts.idleMs);
    idle.unref();
  };
  waitIdle();
  socket.once('close', () => clearTimeout(idle));
  socket.on('message', (data, isBinary) => {
    // 9.5 MB of `[` held main for 8.5 s in JSON.parse: nesting is bounded on the bytes, before
    // they are even decoded.
    const tooDeep = Buffer.isBuffer(data) && jsonNestsDeeperThan(data);
    const call = isBinary || tooDeep ? undefined : parseCall(String(data));
    if (!call) {
      socket.close(malformedCall, 'A bridge call is a JSON { id, name, args }');
      return;
    }
    clearTimeout(idle);
    inFlight++;
    void dispatchToEnvelope(dispatch, call.name, call.args).then((envelope) => {
      if (--inFlight === 0 && socket.readyState === socket.OPEN) waitIdle();
      if (socket.readyState === socket.OPEN) socket.send(answerMessage(call.id, envelope));
    });
  });
}

function parseCall(text: string): z.infer<typeof callMessage> | undefined {
  if (jsonNestsDeeperThan(text)) return undefined;
  try {
    const parsed = callMessage.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
