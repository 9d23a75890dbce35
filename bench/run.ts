/**
 * `npm run bench`: runs every benchmark section and writes docs/benchmarks.md (machine, versions, the
 * command, then one section per area). Sections are `bench/<area>.ts` files exporting
 * `bench<Area>(): Promise<string>` (markdown). Pass area names to run only some: `npm run bench -- sap`.
 * Each area runs in a process of its own, so one area's heap and sockets never slow the next one down.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";

const areas = [
  "language",
  "sap",
  "streaming",
  "entries",
  "delivery",
  "cadence",
  "prompt",
  "codegen",
  "llm",
  "runtime",
  "server",
  "startup",
  "bundle",
  "lsp",
  "compare",
  "fuzz",
  "batch",
  "eval",
  "jsonschema",
  "formats",
] as const;

/**
 * Areas run only when named (`npm run bench -- fuzz`): the fuzz run takes a quarter of an hour, the many
 * entries run (maps of 10^5 entries streamed; their copies alone take minutes) as long, the batch
 * run (100,000 rows twice, with a redis-server) several minutes, jsonschema needs a copy of
 * JSONSchemaBench (`JSONSCHEMABENCH=/path/to/clone`), and formats (issue 38's answer formats, side by side
 * with the real BAML runtime) has its results in its own section of docs/benchmarks.md already.
 */
const namedOnly = new Set<string>(["fuzz", "entries", "batch", "eval", "jsonschema", "formats"]);

/** Areas whose file is not `bench/<area>.ts`. */
const areaFiles: Record<string, string> = { jsonschema: "json-schema-bench" };

/** A section of docs/benchmarks.md between its markers, so one area can be re-run alone. */
function wrapSection(area: string, command: string, body: string): string {
  const stamp = `_Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)}._`;
  return `<!-- bench:${area} -->\n${body.trim()}\n\n${stamp}\n<!-- /bench:${area} -->`;
}

/** The sections already in docs/benchmarks.md, by area. */
function readSections(path: string): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(path)) return sections;
  const text = readFileSync(path, "utf8");
  for (const match of text.matchAll(/<!-- bench:([a-z]+) -->[\s\S]*?<!-- \/bench:\1 -->/g)) {
    sections.set(match[1] ?? "", match[0]);
  }
  return sections;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const unknown = only.filter((area) => !(areas as readonly string[]).includes(area));
  if (unknown.length > 0)
    throw new Error(`unknown bench area(s): ${unknown.join(", ")}; known: ${areas.join(", ")}`);
  const selected = areas.filter((area) => (only.length === 0 ? !namedOnly.has(area) : only.includes(area)));
  const command = `npm run bench${only.length ? ` -- ${only.join(" ")}` : ""}`;
  const packageJson = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
    version: string;
  };
  const target = join(import.meta.dirname, "..", "docs", "benchmarks.md");
  // Re-running some areas keeps the other areas' sections (each says which command produced it).
  const sections = only.length > 0 ? readSections(target) : new Map<string, string>();
  for (const area of selected) {
    if (!existsSync(join(import.meta.dirname, `${areaFiles[area] ?? area}.ts`))) continue;
    process.stderr.write(`bench: ${area}…\n`);
    // The same Node and loader flags (tsx) as this process, with the area's name as the only argument.
    const markdown = execFileSync(
      process.execPath,
      [...process.execArgv, import.meta.filename, "--area", area],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        maxBuffer: 64 * 2 ** 20,
      },
    );
    sections.set(area, wrapSection(area, command, markdown));
  }
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const header = [
    "# Benchmarks",
    "",
    "Every number on this page was produced by `npm run bench` (or, for a section that says so, by",
    "`npm run bench -- <area>`) on the machine described; nothing is edited by hand. Re-run it to",
    "reproduce; timings vary with the machine and its load.",
    "",
    `- Sapling ${packageJson.version}, Node ${process.version}, ${process.platform}/${process.arch}`,
    `- Machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    "",
  ].join("\n");
  const ordered = areas.flatMap((area) => {
    const section = sections.get(area);
    return section ? [section] : [];
  });
  // Sections written by other runners (the BAML corpus, bench/baml-corpus/run.ts) are kept as they are.
  const foreign = [...readSections(target)]
    .filter(([area]) => !(areas as readonly string[]).includes(area))
    .map(([, section]) => section);
  const text = `${header}\n${[...ordered, ...foreign].join("\n\n")}\n`;
  writeFileSync(target, text);
  process.stdout.write(text);
}

/** Child mode: run one area and print its markdown. */
async function runArea(area: string): Promise<void> {
  const module = (await import(`./${areaFiles[area] ?? area}.js`)) as Record<string, unknown>;
  const name = `bench${area[0]?.toUpperCase()}${area.slice(1)}`;
  const run = module[name];
  if (typeof run !== "function") throw new Error(`bench/${area}.ts must export ${name}()`);
  process.stdout.write(await (run as () => Promise<string>)());
}

const areaFlag = process.argv.indexOf("--area");
if (areaFlag >= 0) await runArea(process.argv[areaFlag + 1] ?? "");
else await main();
