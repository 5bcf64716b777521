/**
 * `npm run bench [name ...]`: runs every bench/<name>.bench.ts (or the named ones) in one process,
 * one after another, so each prints its figures measured on the same machine in the same run.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const wanted = new Set(process.argv.slice(2));
const files = (await readdir(dir))
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.size === 0 || wanted.has(file.replace(/\.bench\.ts$/, '')))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark matches ${[...wanted].join(', ')}`);
  process.exit(1);
}
for (const file of files) {
  console.log(`\n== ${file.replace(/\.bench\.ts$/, '')}`);
  const module = (await import(pathToFileURL(`${dir}${file}`).href)) as { default: () => Promise<void> };
  await module.default();
}
