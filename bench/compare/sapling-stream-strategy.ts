/**
 * Sapling's incremental stream parser (src/sap `createStreamParser`): one parser per stream, every chunk
 * pushed, a partial value after each. The whole stream is timed, repeatedly until a budget is spent, and
 * the median taken; the last chunk's cost is the median of the last `push` over those runs.
 */
import { IrIndex } from "../../src/ir/index.js";
import { createStreamParser } from "../../src/sap/index.js";
import { median } from "./measure-time.js";
import type { SaplingProject } from "./sapling-project.js";
import type { StreamStrategy } from "./stream-strategy.js";

const minRuns = 3;

export function saplingIncrementalStrategy(project: SaplingProject): StreamStrategy {
  const index = new IrIndex(project.ir);
  return {
    name: "Sapling",
    incremental: true,
    cost: async (target, chunks, budgetMs) => {
      const type = project.returnTypeOf(target.functionName);
      const totals: number[] = [];
      const lastPushes: number[] = [];
      let withValue = 0;
      const started = performance.now();
      // One untimed run first, so the JIT has compiled the parser before it is timed.
      const warmUp = createStreamParser(type, index);
      for (const chunk of chunks) warmUp.push(chunk);
      while (totals.length < minRuns || (performance.now() - started < budgetMs && totals.length < 100)) {
        const parser = createStreamParser(type, index);
        withValue = 0;
        let lastPushMs = 0;
        const runStarted = performance.now();
        for (const chunk of chunks) {
          const pushStarted = performance.now();
          if (parser.push(chunk).value !== null) withValue += 1;
          lastPushMs = performance.now() - pushStarted;
        }
        totals.push(performance.now() - runStarted);
        lastPushes.push(lastPushMs);
      }
      return {
        totalMs: median(totals),
        lastChunkMs: median(lastPushes),
        stride: 1,
        valueShare: withValue / chunks.length,
      };
    },
  };
}
