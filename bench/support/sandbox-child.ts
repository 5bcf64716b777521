/**
 * A sandbox in its own process for benchmarks, so the service's CPU is not the client's (as with the
 * real service). Prints one JSON line: base URL, and per round three tokens and three entity ids (the
 * engine's, and the two peers' that post the same bodies raw just before and just after it, so every
 * round starts with a whole rate-limit budget and an empty entity for each); stops on SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grantableScopes } from '../../shared/auth/scopes';
import { createSandboxServer } from '../../sandbox/server';

const assessmentYear = Number(process.argv[2] ?? 2025);
const rounds = Number(process.argv[3] ?? 1);
const dir = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
const server = createSandboxServer({
  dataDir: dir,
  assessmentYear,
  rateLimit: { limit: 10, windowMs: 60_000 },
});
const { baseUrl } = await server.listen(0);
const admin = server.store.admin;
const partner = admin.createDataPartner({ name: 'Bench partner' });
const perRound = Array.from({ length: rounds }, (_, round) => {
  const pair = ['engine', 'peer before', 'peer after'].map((name) => {
    const entity = admin.createEntity({
      name: `Bench ${name} ${round + 1}`,
      area_units_name: 'square metres',
    });
    admin.grantEntityAccess(entity.id, partner.id);
    const { token } = admin.createAccessToken({
      dataPartnerId: partner.id,
      name: `${name} ${round + 1}`,
      scopes: grantableScopes,
      expiresAt: Date.now() + 86_400_000,
    });
    return { token, entityId: entity.id };
  });
  return {
    tokens: pair.map((p) => p.token),
    entityIds: pair.map((p) => p.entityId),
  };
});
process.stdout.write(`${JSON.stringify({ baseUrl, rounds: perRound })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
