/**
 * One line per goal, so a reader sees at a glance what falls short:
 * `GOAL <name>: <value> <unit> (goal <op> <target>) OK|OVER`, with the peer's figure and the ratio
 * where a peer was measured in the same run.
 */
export function goal(
  name: string,
  value: number,
  unit: string,
  op: '<=' | '<' | '>=',
  target: number,
  peer?: { name: string; value: number },
): boolean {
  const ok = op === '<=' ? value <= target : op === '<' ? value < target : value >= target;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const extra = peer
    ? `; ${peer.name} ${peer.value.toFixed(digits)} ${unit}, ours x${(value / peer.value).toFixed(2)}`
    : '';
  console.log(
    `GOAL ${name}: ${value.toFixed(digits)} ${unit} (goal ${op} ${target}${extra}) ${ok ? 'OK' : 'OVER'}`,
  );
  return ok;
}

/** The p-th percentile (nearest rank) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/**
 * How long main's event loop takes to answer while other work runs: every 5 ms a callback is due,
 * and the delay until it runs is what a bridge call arriving then would wait. `stop()` ends the
 * probe and returns the delays.
 */
export function eventLoopProbe(): { stop(): Promise<number[]> } {
  const delays: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const due = performance.now();
      await new Promise<void>((resolve) => setImmediate(resolve));
      delays.push(performance.now() - due);
      await new Promise<void>((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return delays;
    },
  };
}
