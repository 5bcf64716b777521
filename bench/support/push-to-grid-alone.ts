/**
 * `npx tsx bench/support/push-to-grid-alone.ts [runs]`: issue 35's push-to-grid figure alone (the sync
 * bench's last measure, without its minutes of pushes and pulls before it), to iterate on it.
 */
import { asset } from '../sync.bench';
import { loadLine } from './machine';
import { measurePushToGrid } from './push-to-grid';

const count = 20_000;

const runs = Number(process.argv[2] ?? 1);
for (let r = 0; r < runs; r++) {
  console.log(loadLine());
  const grid = await measurePushToGrid(count, (i) => asset(i, 'Grid'));
  console.log(
    `views ${grid.viewsMs} ms, reload ${grid.reloadMs.toFixed(0)} ms: x${(grid.viewsMs / grid.reloadMs).toFixed(2)} (goal <= 0.3)`,
  );
}
process.exit(0);
