/**
 * Messy-answer throughput of this tree against another checkout of Sapling, both loaded in one process
 * and timed in turn (alternating which goes first), over the `messy` answers of `bench/sap.ts` (prose, a
 * fence, bare keys, single quotes, trailing commas, comments, numbers as strings, prices, Python literals):
 *
 *   npx tsx scripts/messy-side-by-side.ts <folder of the other checkout> [--rounds N] [--sizes 20,200,1024]
 *     [--best] [--cpu]
 *
 * Two paths per tree: `parseValue(text)` and a stream parser given the whole text then finished
 * (`append(text)`, `finish()`), what final parse becomes once it reads through the stream reader. MB/s
 * from the median of the rounds' per-call times (`--best`: the fastest round, which on a machine shared
 * with other jobs is the one they disturbed least); sizes in KB.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { messy, orderOfSize, orderSchema } from "../bench/sap.js";
import { perCallTime } from "./per-call-time.js";

interface Tree {
  parse: (text: string) => unknown;
  stream: (text: string) => unknown;
}

async function loadTree(folder: string): Promise<Tree> {
  const load = (path: string) => import(pathToFileURL(resolve(folder, path)).href);
  const sap = await load("src/sap/index.ts");
  const language = await load("src/language/index.ts");
  const ir = language.compile({ "order.baml": orderSchema }).ir;
  const type = language.parseTypeExpression("Order", ir).type;
  const index = new (await load("src/ir/index.ts")).IrIndex(ir);
  return {
    parse: (text) => sap.parseValue(text, type, index),
    stream: (text) => {
      const parser = sap.createStreamParser(type, index);
      parser.append(text);
      return parser.finish();
    },
  };
}

const otherFolder = process.argv[2];
const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const rounds = Number(option("--rounds") ?? 5);
const sizes = (option("--sizes") ?? "20,200,1024").split(",").map(Number);
const best = process.argv.includes("--best");
const cpu = process.argv.includes("--cpu");
const trees: [string, Tree][] = [["this tree", await loadTree(".")]];
if (otherFolder !== undefined && !otherFolder.startsWith("--") && otherFolder !== ".")
  trees.push([otherFolder, await loadTree(otherFolder)]);

const perCall = (run: () => void, repeats: number): number => perCallTime(run, repeats, cpu);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const summary = (values: number[]): number => (best ? Math.min(...values) : median(values));

const header = trees.flatMap(([name]) => [`${name} parseValue`, `${name} stream`]);
console.log(`| messy answer | ${header.join(" | ")} |\n|---|${header.map(() => "---:").join("|")}|`);
for (const kilobytes of sizes) {
  const text = messy(orderOfSize(kilobytes * 1024));
  const runs = trees.flatMap(([, tree]) => [() => tree.parse(text), () => tree.stream(text)]);
  const times = runs.map(() => [] as number[]);
  const repeats = Math.max(2, Math.round(4_000_000 / text.length));
  for (const run of runs) run();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? runs.map((_, at) => at) : runs.map((_, at) => runs.length - 1 - at);
    for (const at of order) times[at]!.push(perCall(runs[at]!, repeats));
  }
  const cells = times.map((list) => `${(text.length / 1_048_576 / (summary(list) / 1000)).toFixed(1)} MB/s`);
  console.log(`| ${kilobytes} KB | ${cells.join(" | ")} |`);
}
