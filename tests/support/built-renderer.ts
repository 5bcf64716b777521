import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The built renderer the browser host serves; `npm test` builds it first (pretest). */
export function builtRendererDir(): string {
  const dir = join(process.cwd(), 'out', 'renderer');
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(`No built renderer at ${dir}: run \`npm run build\` first (npm test does).`);
  }
  return dir;
}
