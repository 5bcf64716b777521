import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The built renderer the browser host serves; `npm test` builds it first (pretest).
 * ASSET_DESK_RENDERER_DIR points at a copy instead, so work in progress can test one build while
 * another is being made.
 */
export function builtRendererDir(): string {
  const dir = process.env['ASSET_DESK_RENDERER_DIR'] ?? join(process.cwd(), 'out', 'renderer');
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(`No built renderer at ${dir}: run \`npm run build\` first (npm test does).`);
  }
  return dir;
}
