import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const entityFixture = (id: number, name = `Entity ${id}`) => ({
  id,
  name,
  manager: 'Fund Manager Ltd',
  hq_country_code: 'NL',
  hq_country_name: 'Netherlands',
  address: 'Herengracht 1, Amsterdam',
  reporting_preferences: {
    currency: 'EUR',
    area_units_name: 'square meters',
    reporting_period: 'calendar_year',
    reporting_period_month: 12,
    reporting_period_month_name: 'December',
  },
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-06-01T00:00:00Z',
});

export type Route = (req: {
  method: string;
  path: string;
  token: string | undefined;
  body: string;
}) => { status: number; body?: unknown } | undefined;

/** A scriptable stand-in for the Submission Service: each test sets `route`. */
export async function startFakeApi(): Promise<{
  origin: string;
  route: Route;
  setRoute(route: Route): void;
  requests: Array<{ method: string; path: string; token: string | undefined }>;
  close(): Promise<void>;
}> {
  let route: Route = () => undefined;
  const requests: Array<{ method: string; path: string; token: string | undefined }> = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
    const entry = { method: req.method ?? 'GET', path: req.url ?? '/', token };
    requests.push(entry);
    const answer = route({ ...entry, body: Buffer.concat(chunks).toString('utf8') }) ?? {
      status: 404,
      body: { error: 'not found' },
    };
    res.writeHead(answer.status, { 'Content-Type': 'application/json' });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const api = {
    origin: `http://127.0.0.1:${port}`,
    get route() {
      return route;
    },
    setRoute(next: Route) {
      route = next;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
