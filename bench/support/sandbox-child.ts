/**
 * A sandbox in its own process for benchmarks, so the service's CPU is not the client's (as with the
 * real service). Prints one JSON line: base URL, two tokens and two entity ids; stops on SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grantableScopes } from '../../shared/auth/scopes';
import { createSandboxServer } from '../../sandbox/server';

const assessmentYear = Number(process.argv[2] ?? 2025);
const dir = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
const server = createSandboxServer({
  dataDir: dir,
  assessmentYear,
  rateLimit: { limit: 10, windowMs: 60_000 },
});
const { baseUrl } = await server.listen(0);
const admin = server.store.admin;
const partner = admin.createDataPartner({ name: 'Bench partner' });
const entities = [
  admin.createEntity({ name: 'Bench entity', area_units_name: 'square metres' }),
  admin.createEntity({ name: 'Peer entity', area_units_name: 'square metres' }),
];
const tokens = ['engine', 'peer'].map(
  (name) =>
    admin.createAccessToken({
      dataPartnerId: partner.id,
      name,
      scopes: grantableScopes,
      expiresAt: Date.now() + 86_400_000,
    }).token,
);
for (const entity of entities) admin.grantEntityAccess(entity.id, partner.id);
process.stdout.write(`${JSON.stringify({ baseUrl, tokens, entityIds: entities.map((e) => e.id) })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
