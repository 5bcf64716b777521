import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pkceChallenge } from '../../../electron/auth/pkce';

export interface FakeProvider {
  origin: string;
  /** Form bodies POSTed to /oauth/token, in order. */
  tokenRequests: URLSearchParams[];
  /** The PKCE challenge the client sent to the authorize page; the token endpoint checks against it. */
  expectChallenge(challenge: string): void;
  /** Next /oauth/token answer, instead of a token. */
  failNextExchange(status: number, body: unknown): void;
  close(): Promise<void>;
}

/** Stand-in for the service's token endpoint until the sandbox OAuth provider exists. */
export async function startFakeProvider(): Promise<FakeProvider> {
  const tokenRequests: URLSearchParams[] = [];
  let challenge: string | undefined;
  let failure: { status: number; body: unknown } | undefined;
  const server: Server = createServer(async (req, res) => {
    const body = new URLSearchParams(await readBody(req));
    const json = (status: number, value: unknown): void => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'POST' && req.url === '/oauth/token') {
      tokenRequests.push(body);
      if (failure) {
        const { status, body: answer } = failure;
        failure = undefined;
        return json(status, answer);
      }
      const verifier = body.get('code_verifier') ?? '';
      if (challenge === undefined || pkceChallenge(verifier) !== challenge) {
        return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      return json(200, {
        access_token: `oauth_${body.get('code')}`,
        token_type: 'Bearer',
        expires_in: 7200,
        scope: 'public entities read:assets',
        created_at: Math.floor(Date.now() / 1000),
      });
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    tokenRequests,
    expectChallenge: (value) => {
      challenge = value;
    },
    failNextExchange: (status, body) => {
      failure = { status, body };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
