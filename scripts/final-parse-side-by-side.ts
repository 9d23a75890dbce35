/**
 * Final-parse time of this tree against another checkout of Sapling (the parent commit, say), both loaded
 * in one process and timed interleaved (alternating which goes first), so machine noise hits both alike:
 *
 *   git worktree add --detach ../base <commit>
 *   npx tsx scripts/final-parse-side-by-side.ts ../base [--rounds N] [--cpu]
 *
 * Every answer of the bench corpus (bench/corpus), parsed for its function's return type with each
 * tree's own compiler and parser; the median of six rounds (`--rounds`) per answer, summed per variant
 * and size. `--cpu` times the process's CPU time instead of the wall clock: on a machine shared with
 * other jobs, time spent waiting for a core then counts for neither column.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { readBamlSources } from "../bench/compare/baml-parser.js";
import { loadSaplingProject } from "../bench/compare/sapling-project.js";
import { loadCorpus } from "../bench/corpus/corpus-files.js";
import { IrIndex } from "../src/ir/index.js";
import { parseValue } from "../src/sap/index.js";
import { perCallTime } from "./per-call-time.js";

type Tree = {
  parseValue: (text: string, type: unknown, index: unknown) => unknown;
  IrIndex: new (ir: unknown) => unknown;
  compile: (sources: Record<string, string>) => {
    ir?: { functions: { name: string; returnType: unknown }[] };
  };
};

const baseFolder = process.argv[2];
const roundsAt = process.argv.indexOf("--rounds");
const rounds = roundsAt < 0 ? 6 : Number(process.argv[roundsAt + 1]);
const cpu = process.argv.includes("--cpu");
if (baseFolder === undefined || baseFolder.startsWith("--") || !(rounds >= 1)) {
  console.error(
    "usage: npx tsx scripts/final-parse-side-by-side.ts <folder of the other checkout> [--rounds N] [--cpu]",
  );
  process.exit(2);
}
const load = (path: string) => import(pathToFileURL(resolve(baseFolder, path)).href);
const base: Tree = {
  parseValue: (await load("src/sap/index.ts")).parseValue,
  IrIndex: (await load("src/ir/index.ts")).IrIndex,
  compile: (await load("src/language/index.ts")).compile,
};
const baseIr = base.compile(readBamlSources()).ir;
if (baseIr === undefined) throw new Error(`the corpus does not compile in ${baseFolder}`);
const baseIndex = new base.IrIndex(baseIr);
const baseReturnTypes = new Map(
  baseIr.functions.map((declaration) => [declaration.name, declaration.returnType]),
);
const project = loadSaplingProject();
const index = new IrIndex(project.ir);

const perCall = (run: () => void, repeats: number): number => perCallTime(run, repeats, cpu);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const quietly = (run: () => unknown) => () => {
  try {
    run();
  } catch {
    // A failing answer is timed as well: the error is part of the parse.
  }
};

const groups = new Map<string, { here: number; other: number }>();
for (const corpusCase of loadCorpus()) {
  const type = project.returnTypeOf(corpusCase.functionName);
  const baseType = baseReturnTypes.get(corpusCase.functionName);
  const here = quietly(() => parseValue(corpusCase.answer, type, index));
  const other = quietly(() => base.parseValue(corpusCase.answer, baseType, baseIndex));
  const repeats = corpusCase.answer.length > 100_000 ? 5 : corpusCase.answer.length > 10_000 ? 20 : 200;
  here();
  other();
  const hereTimes: number[] = [];
  const otherTimes: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      hereTimes.push(perCall(here, repeats));
      otherTimes.push(perCall(other, repeats));
    } else {
      otherTimes.push(perCall(other, repeats));
      hereTimes.push(perCall(here, repeats));
    }
  }
  const key = `${corpusCase.variant} ${corpusCase.size}`;
  const group = groups.get(key) ?? { here: 0, other: 0 };
  group.here += median(hereTimes);
  group.other += median(otherTimes);
  groups.set(key, group);
}
let here = 0;
let other = 0;
console.log(`| answers | this tree | ${baseFolder} | ratio |\n| --- | ---: | ---: | ---: |`);
for (const [key, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
  here += group.here;
  other += group.other;
  console.log(
    `| ${key} | ${group.here.toFixed(3)} ms | ${group.other.toFixed(3)} ms | ${(group.here / group.other).toFixed(2)} |`,
  );
}
console.log(`| all | ${here.toFixed(2)} ms | ${other.toFixed(2)} ms | ${(here / other).toFixed(3)} |`);
