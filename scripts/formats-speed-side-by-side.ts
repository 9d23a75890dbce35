/**
 * Final-parse speed of the answer forms of issue #38 grown to about 100 kB (`bench/formats.ts`'s shapes:
 * nested YAML, a markdown table, reasoning steps then a verdict line), in this tree and in another
 * checkout, each read both ways final mode can read it: `parseValue(text, type, index)` and a stream
 * parser given the whole text (`append`, then `finish`). Each measure runs in a process of its own, the
 * two trees in turn (alternating which goes first), so neither's garbage is collected in the other's time:
 *
 *   npx tsx scripts/formats-speed-side-by-side.ts ../base [--rounds N] [--runs N] [--forms a,b]
 *
 * A measure is the process's CPU time (garbage collection included) per parse over `--runs` parses
 * (default 30) after ten to warm up; each row gives the median of `--rounds` (default 3) measures.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { FORMATS_BAML, grownAnswer } from "../bench/formats.js";

/** The forms measured: their row in `bench/formats.ts` and the function whose return type reads them. */
const FORMS: Record<string, string> = {
  "YAML nested": "ReadDigest",
  "markdown table": "ReadBooks",
  "verdict line": "ReadBool",
};
const PATHS = ["parseValue", "stream append + finish"] as const;
type Path = (typeof PATHS)[number];

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : process.argv[at + 1]!;
};

if (process.argv[2] === "--child") {
  const [root, form, path, runs] = process.argv.slice(3) as [string, string, Path, string];
  console.log(JSON.stringify(await measure(root, form, path, Number(runs))));
} else {
  const other = process.argv[2];
  const rounds = Number(option("--rounds", "3"));
  const runs = Number(option("--runs", "30"));
  const forms = option("--forms", Object.keys(FORMS).join(",")).split(",");
  if (other === undefined || other.startsWith("--") || !(rounds >= 1) || !(runs >= 1)) {
    console.error(
      "usage: npx tsx scripts/formats-speed-side-by-side.ts <folder of the other checkout> [--rounds N] [--runs N] [--forms a,b]",
    );
    process.exit(2);
  }
  const trees = [resolve(import.meta.dirname, ".."), resolve(other)];
  console.log(
    `| form | path | ${other} | MB/s | this tree | MB/s | ratio |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |`,
  );
  for (const form of forms) {
    for (const path of PATHS) {
      const times: number[][] = [[], []];
      let length = 0;
      for (let round = 0; round < rounds; round++) {
        for (const which of round % 2 === 0 ? [0, 1] : [1, 0]) {
          const output = execFileSync(
            process.execPath,
            ["--import", "tsx", import.meta.filename, "--child", trees[which]!, form, path, String(runs)],
            { encoding: "utf8" },
          );
          const measured = JSON.parse(output) as { perParse: number; length: number };
          times[which]!.push(measured.perParse);
          length = measured.length;
        }
      }
      const [here, there] = times.map(median) as [number, number];
      const rate = (ms: number) => (length / 1000 / ms).toFixed(1);
      console.log(
        `| ${form} (${(length / 1000).toFixed(0)} kB) | ${path} | ${there.toFixed(1)} ms | ${rate(there)} | ${here.toFixed(1)} ms | ${rate(here)} | ${(here / there).toFixed(2)} |`,
      );
    }
  }
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1]!;
}

/** CPU milliseconds per parse of `form` in the tree at `root`, read by `path`. */
async function measure(root: string, form: string, path: Path, runs: number) {
  const load = (file: string) => import(pathToFileURL(resolve(root, file)).href);
  const { compile } = await load("src/language/index.ts");
  const { IrIndex } = await load("src/ir/index.ts");
  const { createStreamParser, parseValue } = await load("src/sap/index.ts");
  const { ir } = compile({ "formats.baml": FORMATS_BAML });
  if (ir === undefined) throw new Error(`the formats' declarations do not compile in ${root}`);
  const index = new IrIndex(ir);
  const type = ir.functions.find((fn: { name: string }) => fn.name === FORMS[form])?.returnType;
  const text = grownAnswer(form, 100_000);
  if (type === undefined || text === undefined) throw new Error(`no form "${form}"`);
  const parse =
    path === "parseValue"
      ? () => parseValue(text, type, index)
      : () => {
          const stream = createStreamParser(type, ir);
          stream.append(text);
          return stream.finish();
        };
  for (let warm = 0; warm < 10; warm++) parse();
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const started = cpu();
  for (let run = 0; run < runs; run++) parse();
  return { perParse: (cpu() - started) / runs, length: text.length };
}
