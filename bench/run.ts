/**
 * `npm run bench [name ...]`: runs every bench/<name>.bench.ts (or the named ones), one after
 * another, each in a process of its own (through tsx), after printing the machine they run on. A
 * bench's figures sit beside floors and peers measured in its own process in the same run.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { machineLine } from './support/machine';

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
console.log(machineLine());
let failed = 0;
for (const file of files) {
  console.log(`\n== ${file.replace(/\.bench\.ts$/, '')}`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./support/run-one.ts', import.meta.url)), `${dir}${file}`],
      { stdio: 'inherit' },
    );
    child.on('error', reject);
    child.on('exit', (exitCode, signal) => resolve(signal ? null : exitCode));
  });
  if (code !== 0) {
    failed++;
    console.log(`bench ${file} failed (${code === null ? 'killed' : `exit code ${code}`})`);
  }
}
if (failed > 0) process.exitCode = 1;
