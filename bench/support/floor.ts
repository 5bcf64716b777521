/**
 * Issue 33: a headline figure judged as a ratio to its floor, the least work that gives the same
 * result, measured in the same run on the same machine, so the goal holds from one machine (and one
 * moment of its load) to the next. The line keeps the goal line's form:
 * `GOAL <name> against its floor: <ratio> x (goal <= <target>; ours <value> <unit>, floor <value> <unit>) OK|OVER`.
 */
export function floorGoal(
  name: string,
  ours: number,
  floor: number,
  unit: string,
  target: number,
  /** CPU seconds of both, where the work is the process's own: the ratio a loaded machine moves least. */
  cpu?: { ours: number; floor: number },
): boolean {
  const ratio = ours / floor;
  const cpuRatio = cpu
    ? `; CPU ${cpu.ours.toFixed(2)} s against ${cpu.floor.toFixed(2)} s, x${(cpu.ours / cpu.floor).toFixed(2)}`
    : '';
  const ok = ratio <= target;
  const digits = Math.abs(floor) >= 100 ? 0 : Math.abs(floor) >= 10 ? 1 : 2;
  console.log(
    `GOAL ${name} against its floor: ${ratio.toFixed(2)} x (goal <= ${target}; ours ${ours.toFixed(digits)} ${unit}, floor ${floor.toFixed(digits)} ${unit}${cpuRatio}) ${ok ? 'OK' : 'OVER'}`,
  );
  return ok;
}
