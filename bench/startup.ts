/**
 * `startup` benchmark: cold starts, side by side with BAML 0.226.2, in one run. Every sample is a fresh
 * process; the commands take turns (round after round), so that a change in the machine's load touches
 * both sides alike. Sapling runs from a `dist/` built by scripts/build-dist.ts from the current sources
 * (into a scratch folder), BAML from its npm package (`baml-cli` is its `cli.js`, started with `node`
 * as npm's bin link does, without `npx`'s own start-up). The project is examples/resume/baml_src.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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
  /** CPU milliseconds (user + system) the process used, all its threads; undefined off Linux. */
  cpu?: number;
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

/** Clock ticks per second of /proc's CPU times. */
const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/**
 * CPU milliseconds used by this process's waited-for children so far (Linux: `cutime + cstime` of
 * /proc/self/stat, in clock ticks), or undefined elsewhere. On a loaded machine, wall-clock time is mostly
 * the wait for a core; CPU time is what the process itself cost.
 */
function childrenCpuMilliseconds(): number | undefined {
  if (!existsSync("/proc/self/stat")) return undefined;
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  // Counting from the state (field 3) at index 0: cutime is field 16, cstime field 17.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond;
}

function run(contender: Contender): Sample {
  const [file, ...args] = contender.command as [string, ...string[]];
  const cpuBefore = childrenCpuMilliseconds();
  const started = performance.now();
  const result = spawnSync(file, args, {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, BAML_LOG: "off" },
  });
  const wall = performance.now() - started;
  const cpuAfter = childrenCpuMilliseconds();
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  if (result.status !== 0)
    throw new Error(`${contender.label} failed (${result.status}):\n${result.stderr}${result.stdout}`);
  contender.check(result.stdout);
  const reported = /^\{"elapsed":([\d.]+)/.exec(result.stdout)?.[1];
  return {
    wall,
    ...(cpu === undefined ? {} : { cpu }),
    ...(reported === undefined ? {} : { inside: Number(reported) }),
  };
}

const expectLine = (pattern: RegExp) => (stdout: string) => {
  if (!pattern.test(stdout)) throw new Error(`unexpected output: ${stdout.slice(0, 300)}`);
};

const milliseconds = (value: number): string => `${value.toFixed(0)} ms`;

/** The sources transpiled one module per file, as `tsc` emits them (the layout of dist/ before 0012). */
async function buildPerModule(outdir: string): Promise<void> {
  const source = resolve(root, "src");
  const files = readdirSync(source, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".d.ts"))
    .map((file) => join(source, file));
  await build({
    entryPoints: files,
    outbase: source,
    outdir,
    format: "esm",
    platform: "node",
    logLevel: "silent",
  });
  writeFileSync(join(outdir, "package.json"), '{"type": "module"}\n');
}

interface Task {
  name: string;
  bundled: Contender;
  perModule: Contender;
  baml: Contender;
}

export async function benchStartup(): Promise<string> {
  const scratch = resolve(root, ".tmp");
  mkdirSync(scratch, { recursive: true });
  const folder = mkdtempSync(join(scratch, "bench-startup-"));
  try {
    const dist = join(folder, "dist");
    const modules = join(folder, "modules");
    await build({ ...distBuildOptions(dist), sourcemap: false, logLevel: "silent" });
    await buildPerModule(modules);
    const project = writeStartupProject(join(folder, "project"));
    const node = process.execPath;
    const bamlCli = resolve(root, "node_modules", "@boundaryml", "baml", "cli.js");
    const saplingParse = resolve(import.meta.dirname, "startup", "sapling-first-parse.mjs");
    const bamlParse = resolve(import.meta.dirname, "startup", "baml-first-parse.mjs");
    const parseArgs = [project.functionName, project.answerPath];
    const contender = (label: string, command: string[], check: (stdout: string) => void): Contender => ({
      label,
      command,
      check,
      samples: [],
    });
    const saplingTask = (
      name: string,
      args: (build: string) => string[],
      check: (stdout: string) => void,
    ) => ({
      name,
      bundled: contender(`${name}, bundled`, args(dist), check),
      perModule: contender(`${name}, one file per module`, args(modules), check),
    });
    const version = expectLine(/^\d+\.\d+\.\d+\n$/);
    const checked = expectLine(/no problems/);
    const parsed = expectLine(/"decision":"STRONG_HIRE"/);
    const tasks: Task[] = [
      {
        ...saplingTask("`--version`", (build) => [node, join(build, "cli", "bin.js"), "--version"], version),
        baml: contender("baml-cli --version", [node, bamlCli, "--version"], expectLine(/0\.226\.2/)),
      },
      {
        ...saplingTask(
          `\`check\` (${project.sourceBytes.toLocaleString("en-US")} B project)`,
          (build) => [node, join(build, "cli", "bin.js"), "check", "--from", project.bamlSrc],
          checked,
        ),
        baml: contender("baml-cli check", [node, bamlCli, "check", "--from", project.bamlSrc], () => {}),
      },
      {
        ...saplingTask(
          "import the runtime + first parse",
          (build) => [node, saplingParse, join(build, "runtime", "index.js"), project.irPath, ...parseArgs],
          parsed,
        ),
        baml: contender(
          "baml first parse",
          [node, bamlParse, project.sourcesPath, ...parseArgs],
          expectLine(/"candidate_name":"Jane Doe"/),
        ),
      },
    ];
    const floor = contender("node -e 0", [node, "-e", "0"], () => {});
    const contenders = [...tasks.flatMap((task) => [task.bundled, task.perModule, task.baml]), floor];
    for (const each of contenders) run(each); // warm the file cache
    for (let round = 0; round < rounds; round++) for (const each of contenders) each.samples.push(run(each));

    const wall = (each: Contender): number => median(each.samples.map((sample) => sample.wall));
    const fastest = (each: Contender): number => Math.min(...each.samples.map((sample) => sample.wall));
    const cpu = (each: Contender): number =>
      each.samples.reduce((total, sample) => total + (sample.cpu ?? Number.NaN), 0) / each.samples.length;
    const inside = (each: Contender): number =>
      median(each.samples.map((sample) => sample.inside ?? Number.NaN));
    const wallRows = tasks.map((task) => [
      task.name,
      milliseconds(wall(task.bundled)),
      milliseconds(wall(task.perModule)),
      milliseconds(wall(task.baml)),
      formatRatio(wall(task.bundled), wall(task.baml)),
      formatRatio(fastest(task.bundled), fastest(task.baml)),
    ]);
    wallRows.push(["`node -e 0` (the floor)", milliseconds(wall(floor)), "", "", "", ""]);
    const cpuRows = tasks.map((task) => [
      task.name,
      milliseconds(cpu(task.bundled)),
      milliseconds(cpu(task.perModule)),
      milliseconds(cpu(task.baml)),
      formatRatio(cpu(task.bundled), cpu(task.baml)),
    ]);
    cpuRows.push(["`node -e 0` (the floor)", milliseconds(cpu(floor)), "", "", ""]);
    const parse = tasks[2] as Task;
    return [
      "## Cold start, side by side with BAML",
      "",
      `Fresh processes, ${rounds} rounds in which every command runs once in turn (after one warm-up run each),`,
      "so that the machine's load touches every column alike. *Bundled* is `dist/` as `npm run build` makes it",
      "(scripts/build-dist.ts, built for this run from the current sources); *one file per module* is the same",
      "sources transpiled module by module, the layout `tsc` emitted before (docs/decisions/0012-bundled-dist.md);",
      "both have the CLI's lazy command table. `baml-cli` is `node node_modules/@boundaryml/baml/cli.js`, as",
      "npm's bin link starts it, without `npx`. *First parse*: import the runtime entry, load the project",
      "(Sapling: the IR as JSON, as a generated client does; BAML: `BamlRuntime.fromFiles` on the inlined",
      "sources, as its generated client does) and parse the README's fenced, chatty answer",
      "(bench/startup/*-first-parse.mjs). Target: Sapling within 1.5× of BAML on each row. Source:",
      "`bench/startup.ts`.",
      "",
      "Wall clock, spawn to exit (median; the last column compares the fastest runs):",
      "",
      markdownTable(
        [
          "fresh process",
          "Sapling, bundled",
          "one file per module",
          "BAML",
          "bundled ÷ BAML",
          "fastest ÷ fastest",
        ],
        wallRows,
      ),
      "",
      "CPU time, user + system over all threads (mean per process; Linux, /proc). On a machine shared with",
      "other jobs, wall-clock time is mostly the wait for a core, and CPU time is what each process cost:",
      "",
      markdownTable(
        ["fresh process", "Sapling, bundled", "one file per module", "BAML", "bundled ÷ BAML"],
        cpuRows,
      ),
      "",
      "Import + first parse measured inside the process, from before the import to after the parse (median):",
      `Sapling bundled ${milliseconds(inside(parse.bundled))}, one file per module ` +
        `${milliseconds(inside(parse.perModule))}, BAML ${milliseconds(inside(parse.baml))} ` +
        `(bundled ÷ BAML ${formatRatio(inside(parse.bundled), inside(parse.baml))}).`,
      "",
      "The same from a shell: `npm run build`, then `node dist/cli/bin.js --version`,",
      "`node dist/cli/bin.js check --from examples/resume/baml_src`, and the `baml-cli` equivalents.",
      "",
    ].join("\n");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
