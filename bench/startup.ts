/**
 * `startup` benchmark: cold starts, side by side with BAML 0.226.2, in one run. Every sample is a fresh
 * process; the commands take turns (round after round), so that a change in the machine's load touches
 * both sides alike. Sapling runs from a `dist/` built by scripts/build-dist.ts from the current sources
 * (into a scratch folder), BAML from its npm package (`baml-cli` is its `cli.js`, started with `node`
 * as npm's bin link does, without `npx`'s own start-up). The project is examples/resume/baml_src.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { distBuildOptions } from "../scripts/build-dist.js";
import { formatRatio, markdownTable } from "./compare/markdown-table.js";
import { median } from "./compare/measure-time.js";
import { writeStartupProject } from "./startup/startup-project.js";

const root = resolve(import.meta.dirname, "..");
const rounds = Number(process.env.STARTUP_ROUNDS ?? 20);

interface Sample {
  /** Wall-clock milliseconds of the whole process, spawn to exit. */
  wall: number;
  /** Milliseconds the process reported for import + first parse, when it reports one. */
  inside?: number;
}

interface Contender {
  label: string;
  command: string[];
  /** Checks one run's output (a wrong answer must not pass as a fast one). */
  check: (stdout: string) => void;
  samples: Sample[];
}

function run(contender: Contender): Sample {
  const [file, ...args] = contender.command as [string, ...string[]];
  const started = performance.now();
  const result = spawnSync(file, args, {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, BAML_LOG: "off" },
  });
  const wall = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${contender.label} failed (${result.status}):\n${result.stderr}${result.stdout}`);
  contender.check(result.stdout);
  const reported = /^\{"elapsed":([\d.]+)/.exec(result.stdout)?.[1];
  return reported === undefined ? { wall } : { wall, inside: Number(reported) };
}

const expectLine = (pattern: RegExp) => (stdout: string) => {
  if (!pattern.test(stdout)) throw new Error(`unexpected output: ${stdout.slice(0, 300)}`);
};

const milliseconds = (value: number): string => `${value.toFixed(0)} ms`;

export async function benchStartup(): Promise<string> {
  const scratch = resolve(root, ".tmp");
  mkdirSync(scratch, { recursive: true });
  const folder = mkdtempSync(join(scratch, "bench-startup-"));
  try {
    const dist = join(folder, "dist");
    await build({ ...distBuildOptions(dist), sourcemap: false, logLevel: "silent" });
    const project = writeStartupProject(join(folder, "project"));
    const node = process.execPath;
    const sapling = join(dist, "cli", "bin.js");
    const bamlCli = resolve(root, "node_modules", "@boundaryml", "baml", "cli.js");
    const parseArgs = [project.functionName, project.answerPath];
    const pairs: { task: string; sapling: Contender; baml: Contender }[] = [
      {
        task: "`--version`",
        sapling: {
          label: "sapling --version",
          command: [node, sapling, "--version"],
          check: expectLine(/^\d+\.\d+\.\d+\n$/),
          samples: [],
        },
        baml: {
          label: "baml-cli --version",
          command: [node, bamlCli, "--version"],
          check: expectLine(/0\.226\.2/),
          samples: [],
        },
      },
      {
        task: `\`check\` (${project.sourceBytes.toLocaleString("en-US")} B project)`,
        sapling: {
          label: "sapling check",
          command: [node, sapling, "check", "--from", project.bamlSrc],
          check: expectLine(/no problems/),
          samples: [],
        },
        baml: {
          label: "baml-cli check",
          command: [node, bamlCli, "check", "--from", project.bamlSrc],
          check: () => {},
          samples: [],
        },
      },
      {
        task: "import the runtime + first parse",
        sapling: {
          label: "sapling first parse",
          command: [
            node,
            resolve(import.meta.dirname, "startup", "sapling-first-parse.mjs"),
            join(dist, "runtime", "index.js"),
            project.irPath,
            ...parseArgs,
          ],
          check: expectLine(/"decision":"STRONG_HIRE"/),
          samples: [],
        },
        baml: {
          label: "baml first parse",
          command: [
            node,
            resolve(import.meta.dirname, "startup", "baml-first-parse.mjs"),
            project.sourcesPath,
            ...parseArgs,
          ],
          check: expectLine(/"candidate_name":"Jane Doe"/),
          samples: [],
        },
      },
    ];
    const floor: Contender = { label: "node -e 0", command: [node, "-e", "0"], check: () => {}, samples: [] };
    const contenders = [...pairs.flatMap((pair) => [pair.sapling, pair.baml]), floor];
    for (const contender of contenders) run(contender); // warm the file cache
    for (let round = 0; round < rounds; round++)
      for (const contender of contenders) contender.samples.push(run(contender));

    const wallMedian = (contender: Contender): number =>
      median(contender.samples.map((sample) => sample.wall));
    const wallMin = (contender: Contender): number =>
      Math.min(...contender.samples.map((sample) => sample.wall));
    const rows = pairs.map((pair) => [
      pair.task,
      milliseconds(wallMedian(pair.sapling)),
      milliseconds(wallMedian(pair.baml)),
      formatRatio(wallMedian(pair.sapling), wallMedian(pair.baml)),
      milliseconds(wallMin(pair.sapling)),
      milliseconds(wallMin(pair.baml)),
      formatRatio(wallMin(pair.sapling), wallMin(pair.baml)),
    ]);
    rows.push([
      "`node -e 0` (the floor)",
      milliseconds(wallMedian(floor)),
      "",
      "",
      milliseconds(wallMin(floor)),
      "",
      "",
    ]);
    const inside = (contender: Contender): number =>
      median(contender.samples.map((sample) => sample.inside ?? Number.NaN));
    const parsePair = pairs[2] as (typeof pairs)[number];
    return [
      "## Cold start, side by side with BAML",
      "",
      `Fresh processes, ${rounds} rounds in which every command runs once in turn (after one warm-up run each),`,
      "on the 2-core machine above, shared with other jobs: read the ratios, which both sides share the load",
      "of, more than the times. Sapling runs from `dist/` bundled by scripts/build-dist.ts; `baml-cli` is",
      "`node node_modules/@boundaryml/baml/cli.js`. *First parse*: import the runtime entry, load the",
      "project (Sapling: the IR as JSON, as a generated client does; BAML: `BamlRuntime.fromFiles` on the",
      "inlined sources, as its generated client does), parse the README's fenced, chatty answer",
      "(bench/startup/*-first-parse.mjs). Target: Sapling within 1.5× of BAML on each row. Source:",
      "`bench/startup.ts`.",
      "",
      markdownTable(
        [
          "fresh process",
          "Sapling (median)",
          "BAML (median)",
          "ratio",
          "Sapling (min)",
          "BAML (min)",
          "ratio (min)",
        ],
        rows,
      ),
      "",
      `Import + first parse measured inside the process (from before the import to after the parse, median):`,
      `Sapling ${milliseconds(inside(parsePair.sapling))}, BAML ${milliseconds(inside(parsePair.baml))}` +
        ` (${formatRatio(inside(parsePair.sapling), inside(parsePair.baml))}).`,
      "",
      "The same commands from a shell: `npm run build`, then `node dist/cli/bin.js --version`,",
      "`node dist/cli/bin.js check --from examples/resume/baml_src`, and the `baml-cli` equivalents.",
      "",
    ].join("\n");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
