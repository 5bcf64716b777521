/**
 * `npm run start:browser`: the built renderer in any browser, with the same services behind the
 * bridge as the desktop app. Prints the one URL to open (it carries this run's token).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAppHandlers } from '../app/create-handlers';
import { startBrowserHost } from './server';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };
const port = Number(process.env['ASSET_DESK_PORT'] ?? 0);

const host = await startBrowserHost({
  rendererDir: `${root}out/renderer`,
  handlers: createAppHandlers({ host: 'browser', version: pkg.version }),
  port: Number.isInteger(port) ? port : 0,
});
console.log(`Asset Desk browser host: open ${host.launchUrl}`);

const stop = () => void host.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
