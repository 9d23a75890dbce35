/**
 * The clock of the side-by-side scripts: milliseconds per call of `run` over `repeats` calls, by the wall
 * clock, or by the process's CPU time (`cpu`: on a machine shared with other jobs, time spent waiting for
 * a core then counts for neither column).
 */
export function perCallTime(run: () => void, repeats: number, cpu: boolean): number {
  const started = now(cpu);
  for (let repeat = 0; repeat < repeats; repeat++) run();
  return (now(cpu) - started) / repeats;
}

function now(cpu: boolean): number {
  if (!cpu) return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
