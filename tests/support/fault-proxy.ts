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
  const sockets = new Set<Socket>();

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
    client.on('data', (chunk: Buffer) => {
      const head = chunk.subarray(0, 200).toString('latin1');
      if (pattern && remaining > 0 && pattern.test(head)) {
        remaining--;
        armed = true;
      }
      if (delayPattern && delayRemaining > 0 && delayPattern.test(head)) {
        delayRemaining--;
        slow = delayMs;
      }
      server.write(chunk);
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
