/**
 * `npm run start:browser`: the built renderer in any browser, with the same app core behind the
 * bridge as the desktop app (embedded sandbox included). Prints the one URL to open (it carries this
 * run's token).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAppCore } from '../app/app-core';
import { startBrowserHost } from './server';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };
const port = Number(process.env['ASSET_DESK_PORT'] ?? 0);
const dataDir = resolve(process.env['ASSET_DESK_DATA_DIR'] ?? `${root}.data/app`);

const core = await startAppCore({
  dataDir,
  version: pkg.version,
  host: 'browser',
  // No system browser to drive from here: the page opens the sign-in page in a new tab itself
  // (browserOpened false tells it to), or shows the address to open.
  openBrowser: async (url) => {
    console.log(`Sign in by opening ${url}`);
    throw new Error('The browser host opens the sign-in page from the page');
  },
});
const host = await startBrowserHost({
  rendererDir: `${root}out/renderer`,
  handlers: core.handlers,
  transfers: core.transfers,
  port: Number.isInteger(port) ? port : 0,
});
core.events.attach(host.events);
console.log(`Asset Desk browser host (data in ${dataDir})`);
console.log(`Open ${host.launchUrl}`);
// The local sandbox starts in its own process as the app enters its connection.
void core.connected.then(() => {
  if (core.sandbox.info) console.log(`Local sandbox at ${core.sandbox.info.baseUrl}`);
});

const stop = () => void Promise.all([host.close(), core.close()]).then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
