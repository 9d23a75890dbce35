/**
 * `npm run bench`: runs every benchmark section and writes docs/benchmarks.md (machine, versions, the
 * command, then one section per area). Sections are `bench/<area>.ts` files exporting
 * `bench<Area>(): Promise<string>` (markdown). Pass area names to run only some: `npm run bench -- sap`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";

const areas = [
  "language",
  "sap",
  "streaming",
  "prompt",
  "codegen",
  "llm",
  "runtime",
  "server",
  "compare",
] as const;

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const selected = areas.filter((area) => only.length === 0 || only.includes(area));
  const packageJson = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
    version: string;
  };
  const sections: string[] = [];
  for (const area of selected) {
    const file = join(import.meta.dirname, `${area}.ts`);
    if (!existsSync(file)) continue;
    const module = (await import(`./${area}.js`)) as Record<string, unknown>;
    const name = `bench${area[0]?.toUpperCase()}${area.slice(1)}`;
    const run = module[name];
    if (typeof run !== "function") throw new Error(`bench/${area}.ts must export ${name}()`);
    process.stderr.write(`bench: ${area}…\n`);
    sections.push(await (run as () => Promise<string>)());
  }
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const header = [
    "# Benchmarks",
    "",
    "Every number on this page was produced by one run of the command below on the machine described;",
    "nothing is edited by hand. Re-run it to reproduce (timings vary with the machine and its load).",
    "",
    `- Command: \`npm run bench${only.length ? ` -- ${only.join(" ")}` : ""}\``,
    `- Sapling ${packageJson.version}, Node ${process.version}, ${process.platform}/${process.arch}`,
    `- Machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    "",
  ].join("\n");
  const text = `${header}\n${sections.join("\n\n")}\n`;
  const target = join(import.meta.dirname, "..", "docs", "benchmarks.md");
  writeFileSync(target, text);
  process.stdout.write(text);
}

await main();
