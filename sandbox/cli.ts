import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSandboxServer } from './server';
import { ensureDemoAccess } from './seed';
import { errorMessage } from '../shared/errors';

/**
 * `npm run sandbox`: the sandbox on its own, for manual testing and other tools.
 * Options: --data-dir (default .data/sandbox), --port (default 4010; 0 picks a free one),
 * --real-names (the asset routes speak the real service's names: `gresb_asset_id`, no `lat`/`lng`
 * or `owned_entire_period`; our spec's names by default).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string', default: path.join('.data', 'sandbox') },
      port: { type: 'string', default: process.env['SANDBOX_PORT'] ?? '4010' },
      quiet: { type: 'boolean', default: false },
      'real-names': { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --port ${values.port}`);
  const dataDir = path.resolve(values['data-dir']);
  const realNames = values['real-names'];
  const server = createSandboxServer({ dataDir, logger: !values.quiet, realNames });
  const access = ensureDemoAccess(server.store, { assessmentYear: new Date().getUTCFullYear() });
  const { baseUrl } = await server.listen(port);
  const lines = [
    `Sandbox Submission Service ${access.seeded ? '(seeded with demo data)' : ''}`.trim(),
    `  data dir : ${dataDir}`,
    `  names    : ${realNames ? "the real service's (gresb_asset_id; no lat, lng, owned_entire_period)" : "our spec's (service_asset_id)"}`,
    `  base URL : ${baseUrl}   (asset API ${baseUrl}/api/v1, lists ${baseUrl}/api/v0)`,
    `  portal   : ${baseUrl}/portal   (sign in as ${access.demoUser.email} / ${access.demoUser.password})`,
    `  OAuth    : ${baseUrl}/oauth/authorize, ${baseUrl}/oauth/token (register applications under Data Partners)`,
    `  token    : ${access.token}`,
    `  entities : ${access.entityIds.join(', ')}`,
    `  try      : curl -H "Authorization: Bearer ${access.token}" ${baseUrl}/api/v1/entities`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox: ${errorMessage(err)}\n`);
  process.exit(1);
});
