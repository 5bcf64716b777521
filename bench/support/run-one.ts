/**
 * One bench in a process of its own (`bench/run.ts` starts one per bench): it inherits no heap, no
 * JIT state and no peak memory from the benches before it, so the peak it reports is its own.
 */
import { pathToFileURL } from 'node:url';
import { loadLine, peakRssMb } from './machine';

const file = process.argv[2];
if (!file) {
  console.error('usage: run-one.ts <bench file>');
  process.exit(2);
}
console.log(loadLine());
const module = (await import(pathToFileURL(file).href)) as { default: () => Promise<void> };
await module.default();
console.log(`peak RSS of this bench's process: ${peakRssMb().toFixed(0)} MB; ${loadLine()}`);
