/**
 * Median wall time of a (possibly async) call, in milliseconds. Fast calls are timed in batches so each
 * sample is at least ~0.2 ms (the timer's resolution stops mattering); slow calls run until a per-call time
 * budget is spent, at least `minSamples` times — and exactly once when a single run exceeds the budget.
 */
export interface MeasureOptions {
  /** Stop taking samples once this much time has been spent (the first sample always completes). */
  budgetMs: number;
  minSamples?: number;
  maxSamples?: number;
}

export interface Measurement {
  medianMs: number;
  /** Calls actually timed (samples × batch size). */
  calls: number;
}

const minimumSampleMs = 0.2;

export async function measureTime(call: () => unknown, options: MeasureOptions): Promise<Measurement> {
  const run = async (): Promise<void> => {
    const result = call();
    if (result instanceof Promise) await result;
  };
  const started = performance.now();
  await run();
  const firstMs = performance.now() - started;
  if (firstMs >= options.budgetMs) return { medianMs: firstMs, calls: 1 };
  const batch = Math.max(1, Math.ceil(minimumSampleMs / Math.max(firstMs, 0.001)));
  const samples: number[] = [];
  const minSamples = options.minSamples ?? 5;
  const maxSamples = options.maxSamples ?? 200;
  while (
    samples.length < maxSamples &&
    (samples.length < minSamples || performance.now() - started < options.budgetMs)
  ) {
    const sampleStart = performance.now();
    for (let index = 0; index < batch; index += 1) await run();
    samples.push((performance.now() - sampleStart) / batch);
  }
  return { medianMs: median(samples), calls: samples.length * batch };
}

/** The median of a non-empty list (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of an empty list");
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
