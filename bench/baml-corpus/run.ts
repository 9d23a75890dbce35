/**
 * The BAML compatibility corpus run. For every project materialised by bench/baml-corpus/materialise.sh
 * (DIR/<group>/<name>/baml_src, from bench/baml-corpus/sources.tsv), this runs the real `baml-cli check`
 * (the @boundaryml/baml devDependency) and `sapling check`; on each project Sapling accepts it runs
 * `sapling generate` on a copy (adding a TypeScript generator when the project has only other ones) and
 * type-checks the generated client under `strict` with NodeNext modules. The summary goes into
 * docs/benchmarks.md between the `corpus` markers; every project's outcome goes to DIR/report.json.
 *
 *   bench/baml-corpus/materialise.sh /tmp/baml-corpus
 *   npx tsx bench/baml-corpus/run.ts --dir /tmp/baml-corpus [--only NAME] [--no-write]
 *
 * Projects are chosen by the rule stated in docs/benchmarks.md, never by whether they pass.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { captureContext } from "../../src/cli/cli-context.js";
import { main } from "../../src/cli/main.js";
import { typeCheck } from "../../test/codegen-typecheck.js";

interface Outcome {
  group: string;
  name: string;
  files: number;
  baml: { accepted: boolean; errors: number; warnings: number };
  sapling: { accepted: boolean; errors: number; warnings: number; codes: Record<string, number> };
  generated?: { ok: boolean; addedGenerator: boolean; files: number; problems: string[] };
}

const root = resolve(import.meta.dirname, "..", "..");
const bamlCli = join(root, "node_modules", ".bin", "baml-cli");

function listBaml(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".baml"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** `baml-cli check`: accepted when it reports no error (it exits 1 on warnings alone). */
function runBaml(dir: string): Outcome["baml"] {
  const result = spawnSync(bamlCli, ["check", "--from", dir, "--no-version-check"], {
    encoding: "utf8",
    maxBuffer: 64 * 2 ** 20,
  });
  const text = `${result.stdout}\n${result.stderr}`;
  const errors = (text.match(/^error\b/gm) ?? []).length;
  const warnings = (text.match(/^warning\b/gm) ?? []).length;
  return { accepted: result.status === 0 || errors === 0, errors, warnings };
}

async function runSapling(dir: string): Promise<Outcome["sapling"]> {
  const context = captureContext();
  const status = await main(["check", "--from", dir], context);
  const { stdout, stderr } = context.output();
  const text = `${stdout}\n${stderr}`;
  const codes: Record<string, number> = {};
  for (const match of text.matchAll(/^(?:error|warning)\[([A-Z]\d+)\]/gm)) {
    const code = match[1] ?? "";
    codes[code] = (codes[code] ?? 0) + 1;
  }
  const errors = (text.match(/^error\[/gm) ?? []).length;
  const warnings = (text.match(/^warning\[/gm) ?? []).length;
  return { accepted: status === 0, errors, warnings, codes };
}

/** The TypeScript generator added to projects that generate only Python, Ruby, Go, …. */
const addedGenerator = `generator sapling_corpus_typescript {
  output_type "typescript"
  output_dir "../"
  version "0.226.2"
  module_format "esm"
}
`;

async function generateAndTypeCheck(dir: string): Promise<NonNullable<Outcome["generated"]>> {
  const work = mkdtempSync(join(tmpdir(), "baml-corpus-"));
  try {
    // Nested, so an output_dir such as "../../frontend/src" still lands inside the scratch folder.
    const source = join(work, "project", "app", "server", "baml_src");
    cpSync(dir, source, { recursive: true });
    const texts = listBaml(source).map((path) => readFileSync(path, "utf8"));
    const hasTypeScript = texts.some((text) =>
      /^\s*generator\b[^{]*\{[^}]*output_type\s+"?typescript(\/react)?"?\s*$/m.test(text),
    );
    if (!hasTypeScript) writeFileSync(join(source, "sapling_corpus_generator.baml"), addedGenerator);
    const context = captureContext({ cwd: work });
    const status = await main(["generate", "--from", source], context);
    const output = context.output();
    if (status !== 0) {
      return {
        ok: false,
        addedGenerator: !hasTypeScript,
        files: 0,
        problems: [`sapling generate exited ${status}: ${output.stderr.trim().slice(0, 400)}`],
      };
    }
    const generated = readdirSync(work, { recursive: true, withFileTypes: true })
      .filter(
        // `.tsx` too: the hooks of a `typescript/react` generator.
        (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && entry.parentPath.includes("baml_client"),
      )
      .map((entry) => join(entry.parentPath, entry.name));
    const cjs = texts.some((text) => /module_format\s+"?cjs"?/.test(text));
    // The package.json an application would have: NodeNext reads "type" to tell ESM from CommonJS.
    writeFileSync(join(work, "package.json"), JSON.stringify({ type: cjs ? "commonjs" : "module" }));
    const problems = typeCheck({
      moduleFormat: cjs ? "cjs" : "esm",
      rootFiles: generated,
      virtualFiles: new Map(),
      reportUnder: [work],
    });
    return {
      ok: generated.length > 0 && problems.length === 0,
      addedGenerator: !hasTypeScript,
      files: generated.length,
      problems,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function summary(outcomes: Outcome[]): string {
  const groups = ["community", "boundaryml"];
  const lines = [
    "## BAML compatibility corpus",
    "",
    "Real projects from public repositories (the list, pinned by commit: `bench/baml-corpus/sources.tsv`).",
    "Chosen by rule, not by outcome: the first 87 repositories the public-code index lists as holding",
    "`baml_src/clients.baml` (alphabetical by owner; the 59th to 87th added for issue 35), each `baml_src`",
    "folder of their newest snapshot a project (14 had no snapshot, 6 no `.baml` file there); those owned by BoundaryML, every `baml_src`",
    "folder of `BoundaryML/baml-examples` and BAML's own `integ-tests/baml_src` (from the `quencs/baml`",
    "fork's snapshot of `BoundaryML/baml`, March 2026) form the **boundaryml** group, the rest",
    "**community**. For each project: the real `baml-cli check` (0.226.2),",
    "`sapling check`, then on the projects Sapling accepts `sapling generate` (a TypeScript generator is",
    "added when the project has none) and a `strict` NodeNext type-check of the generated client.",
    "Re-run: `bench/baml-corpus/materialise.sh /tmp/baml-corpus` (from local git mirrors of the listed",
    'repositories), then `npx tsx bench/baml-corpus/run.ts --dir /tmp/baml-corpus`. BAML "accepts" a project',
    "when `baml-cli check` reports no error (it exits 1 on warnings alone; `sapling check` exits 0 there).",
    "",
    "| group | projects | BAML accepts | Sapling accepts | both accept | generated + type-checked | BAML rejects, Sapling accepts |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  for (const group of [...groups, "all"]) {
    const rows = outcomes.filter((outcome) => group === "all" || outcome.group === group);
    const both = rows.filter((row) => row.baml.accepted && row.sapling.accepted);
    lines.push(
      `| ${group} | ${rows.length} | ${rows.filter((row) => row.baml.accepted).length} | ${rows.filter((row) => row.sapling.accepted).length} | ${both.length} | ${rows.filter((row) => row.generated?.ok).length} | ${rows.filter((row) => !row.baml.accepted && row.sapling.accepted).length} |`,
    );
  }
  lines.push(
    "",
    "| project | .baml files | baml-cli errors / warnings | sapling errors / warnings | generated |",
  );
  lines.push("|---|---:|---:|---:|---|");
  for (const row of outcomes) {
    const generated = row.generated
      ? row.generated.ok
        ? `ok (${row.generated.files} files${row.generated.addedGenerator ? ", TS generator added" : ""})`
        : `**failed**: ${row.generated.problems[0]?.slice(0, 120) ?? ""}`
      : "—";
    const codes = Object.entries(row.sapling.codes)
      .map(([code, count]) => `${code}×${count}`)
      .join(" ");
    lines.push(
      `| ${row.group}/${row.name} | ${row.files} | ${row.baml.errors} / ${row.baml.warnings} | ${row.sapling.errors} / ${row.sapling.warnings}${codes ? ` (${codes})` : ""} | ${generated} |`,
    );
  }
  return lines.join("\n");
}

function writeSection(markdown: string): void {
  const path = join(root, "docs", "benchmarks.md");
  const stamp = `_Produced by \`npx tsx bench/baml-corpus/run.ts --dir DIR\` on ${new Date().toISOString().slice(0, 10)}._`;
  const section = `<!-- bench:corpus -->\n${markdown}\n\n${stamp}\n<!-- /bench:corpus -->`;
  const text = readFileSync(path, "utf8");
  const pattern = /<!-- bench:corpus -->[\s\S]*?<!-- \/bench:corpus -->/;
  writeFileSync(
    path,
    pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}\n`,
  );
}

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: "string", default: "/tmp/baml-corpus" },
      only: { type: "string" },
      "no-write": { type: "boolean", default: false },
      /** Rewrite the docs section from DIR/report.json without running anything again. */
      "from-report": { type: "boolean", default: false },
    },
  });
  const dir = resolve(values.dir ?? "/tmp/baml-corpus");
  if (!existsSync(dir))
    throw new Error(`${dir} does not exist: run bench/baml-corpus/materialise.sh ${dir} first`);
  if (values["from-report"]) {
    writeSection(summary(JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as Outcome[]));
    return;
  }
  const outcomes: Outcome[] = [];
  for (const group of readdirSync(dir).sort()) {
    if (!existsSync(join(dir, group)) || group.endsWith(".json")) continue;
    for (const name of readdirSync(join(dir, group)).sort()) {
      if (values.only !== undefined && !name.includes(values.only)) continue;
      const project = join(dir, group, name, "baml_src");
      if (!existsSync(project)) continue;
      const files = listBaml(project).length;
      if (files === 0) continue;
      const baml = runBaml(project);
      const sapling = await runSapling(project);
      const outcome: Outcome = { group, name, files, baml, sapling };
      if (sapling.accepted) outcome.generated = await generateAndTypeCheck(project);
      outcomes.push(outcome);
      process.stderr.write(
        `${group}/${name}: baml ${baml.accepted ? "ok" : "rejects"}, sapling ${sapling.accepted ? "ok" : `${sapling.errors} errors ${JSON.stringify(sapling.codes)}`}${outcome.generated && !outcome.generated.ok ? ` GENERATE FAILED ${outcome.generated.problems[0]?.slice(0, 200)}` : ""}\n`,
      );
    }
  }
  writeFileSync(join(dir, "report.json"), `${JSON.stringify(outcomes, null, 2)}\n`);
  const markdown = summary(outcomes);
  if (!values["no-write"] && values.only === undefined) writeSection(markdown);
  process.stdout.write(
    `${markdown
      .split("\n")
      .filter((line) => /^\| (community|boundaryml|all) \|/.test(line))
      .join("\n")}\n`,
  );
}

await run();
