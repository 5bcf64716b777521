import { createServer, connect, type Socket } from 'node:net';

/**
 * A real TCP proxy between a client and a server on loopback, for fault tests. It forwards bytes
 * both ways and, when told, cuts a connection after the server has started answering a request
 * that matches a pattern: the server did the work, the client never hears of it.
 */
export interface FaultProxy {
  url: string;
  /** Cut the next `count` connections whose request line matches, after the server answered. */
  cutAfterResponse(requestLine: RegExp, count?: number): void;
  /** Delay the answers to the next `count` requests whose request line matches. */
  delayResponses(requestLine: RegExp, ms: number, count?: number): void;
  /**
   * Hold the next request whose request line matches before it reaches the server: `held`
   * resolves once it is held, `release` lets it through (so the server answers it as it is then).
   */
  holdRequest(requestLine: RegExp): { held: Promise<void>; release: () => void };
  /** Refuse new connections (reset at once) while true. */
  setDown(down: boolean): void;
  cuts(): number;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let pattern: RegExp | undefined;
  let remaining = 0;
  let cutCount = 0;
  let delayPattern: RegExp | undefined;
  let delayMs = 0;
  let delayRemaining = 0;
  let down = false;
  let hold: { pattern: RegExp; onHeld: () => void; released: Promise<void> } | undefined;
  const sockets = new Set<Socket>();
  // Like a reverse proxy, name the upstream in Host: the sandbox refuses any Host but its own.
  let ownHost = '';
  const hostLine = () => new RegExp(`\r\nhost: *${ownHost.replace(/\./g, '\\.')}\r\n`, 'i');
  const rewriteHost = (chunk: Buffer): Buffer => {
    const text = chunk.toString('latin1');
    const replaced = text.replace(hostLine(), `\r\nhost: ${upstream.host}\r\n`);
    return replaced === text ? chunk : Buffer.from(replaced, 'latin1');
  };

  const server = createServer((client) => {
    sockets.add(client);
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const server = connect(Number(upstream.port), upstream.hostname);
    sockets.add(server);
    let armed = false;
    let slow = 0;
    // While a request of this connection is held, its bytes wait here in order.
    let waiting: Buffer[] | undefined;
    client.on('data', (raw: Buffer) => {
      // As a reverse proxy does, name the upstream in Host: the sandbox answers only to its own.
      const chunk = withUpstreamHost(raw, upstream.host);
      if (waiting) {
        waiting.push(chunk);
        return;
      }
      const head = chunk.subarray(0, 200).toString('latin1');
      if (hold && hold.pattern.test(head)) {
        const { onHeld, released } = hold;
        hold = undefined;
        const queue: Buffer[] = [chunk];
        waiting = queue;
        onHeld();
        void released.then(() => {
          waiting = undefined;
          for (const part of queue) if (!server.destroyed) server.write(part);
        });
        return;
      }
      if (pattern && remaining > 0 && pattern.test(head)) {
        remaining--;
        armed = true;
      }
      if (delayPattern && delayRemaining > 0 && delayPattern.test(head)) {
        delayRemaining--;
        slow = delayMs;
      }
      server.write(rewriteHost(chunk));
    });
    server.on('data', (chunk: Buffer) => {
      if (armed) {
        // The server has answered: drop the answer and the connection.
        cutCount++;
        client.resetAndDestroy();
        server.destroy();
        return;
      }
      if (slow > 0) {
        server.pause();
        setTimeout(() => {
          if (!client.destroyed) client.write(chunk);
          server.resume();
        }, slow);
      } else if (!client.destroyed) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    client.on('close', end);
    server.on('close', end);
    client.on('error', end);
    server.on('error', end);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  ownHost = `127.0.0.1:${address.port}`;

  return {
    url: `http://127.0.0.1:${address.port}`,
    cutAfterResponse(requestLine, count = 1) {
      pattern = requestLine;
      remaining = count;
    },
    delayResponses(requestLine, ms, count = 1) {
      delayPattern = requestLine;
      delayMs = ms;
      delayRemaining = count;
    },
    holdRequest(requestLine) {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let onHeld = () => {};
      const held = new Promise<void>((resolve) => (onHeld = resolve));
      hold = { pattern: requestLine, onHeld, released };
      return { held, release };
    },
    setDown(value) {
      down = value;
    },
    cuts: () => cutCount,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The request's Host header (if this chunk carries one) set to the upstream's `host:port`. */
function withUpstreamHost(chunk: Buffer, host: string): Buffer {
  const text = chunk.toString('latin1');
  const rewritten = text.replace(/\r\nhost: [^\r\n]*/i, `\r\nhost: ${host}`);
  return rewritten === text ? chunk : Buffer.from(rewritten, 'latin1');
}
