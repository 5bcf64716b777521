/**
 * The bridge's long-lived connections (calls' sockets and event streams), held to a number per host:
 * a page needs one of each per tab, and every one held costs memory and a file descriptor, so a
 * client opening thousands is refused with the reason instead of being kept forever.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { BridgeEventName, EventPayload } from '../../shared/bridge/contract';
import type { EventSink } from '../bridge/handlers';

export interface ConnectionLimits {
  /** Open sockets per host: one per tab of the app. */
  sockets: number;
  /** Open event streams per host: one per tab of the app. */
  streams: number;
  /** A socket with no call in flight and none sent for this long is closed; the page opens another. */
  socketIdleMs: number;
}

export const defaultConnectionLimits: ConnectionLimits = {
  sockets: 32,
  streams: 32,
  socketIdleMs: 15 * 60_000,
};

/** WebSocket close code 1013, "Try Again Later": the host is at its limit. */
const tryAgainLater = 1013;

export class BridgeConnections {
  private readonly sockets = new Set<WebSocket>();
  private readonly streams = new Set<ServerResponse>();

  constructor(readonly limits: ConnectionLimits) {}

  /**
   * Takes an opened socket, or closes it with the reason when the host holds its limit (a browser
   * shows a page nothing of a refused handshake's answer, but it does show a close's reason).
   */
  admitSocket(socket: WebSocket): boolean {
    if (this.sockets.size >= this.limits.sockets) {
      socket.close(
        tryAgainLater,
        `Too many bridge sockets (${this.limits.sockets}): close other Asset Desk tabs`,
      );
      return false;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    return true;
  }

  /** Opens an event stream on this request, or answers 503 with the reason at the limit. */
  openStream(request: FastifyRequest, reply: FastifyReply): void {
    if (this.streams.size >= this.limits.streams) {
      void reply.code(503).send({
        code: 'busy',
        message: `Too many bridge event streams (${this.limits.streams}): close other Asset Desk tabs.`,
      });
      return;
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    this.streams.add(res);
    request.raw.on('close', () => this.streams.delete(res));
  }

  readonly events: EventSink = {
    emit: <N extends BridgeEventName>(name: N, payload: EventPayload<N>) => {
      const frame = `data: ${JSON.stringify({ name, payload })}\n\n`;
      for (const res of this.streams) res.write(frame);
    },
  };

  /** Ends every stream (the host is closing; the socket plugin closes the sockets). */
  endStreams(): void {
    for (const res of this.streams) res.end();
    this.streams.clear();
  }
}
