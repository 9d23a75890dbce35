/**
 * `sapling-llm/json-schema` on JSONSchemaBench (Geng et al. 2025, arXiv 2501.10868; data MIT): the 9,558
 * real schemas of its ten sets with MaskBench's valid and invalid instances, read at run time from a
 * copy of github.com/guidance-ai/jsonschemabench (never committed here). Point `JSONSCHEMABENCH` at a
 * clone (`git clone https://github.com/guidance-ai/jsonschemabench`) or at a bare git directory:
 *
 *   JSONSCHEMABENCH=/path/to/jsonschemabench npm run bench -- jsonschema
 *   JSONSCHEMABENCH=/path/to/jsonschemabench npx tsx bench/json-schema-bench.ts   (prints the section)
 *
 * Per set: schemas accepted (and the constructs refused), Zod's `z.fromJSONSchema` on the same schemas,
 * valid instances read back exactly, messy renderings read as the clean one, invalid instances returned
 * as a value (and whether that value breaks the schema: it must never), compile and parse times, and
 * o200k_base tokens of `outputFormat` against the minified JSON Schema.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getEncoding } from "js-tiktoken";
import { z } from "zod";
import {
  jsonSchemaTypedSchema,
  outputFormat,
  parse,
  SchemaParseError,
  UnsupportedSchemaError,
} from "../src/json-schema/index.js";

const SETS = [
  "Glaiveai2K",
  "Github_trivial",
  "Github_easy",
  "Snowplow",
  "Github_medium",
  "Kubernetes",
  "WashingtonPost",
  "Github_hard",
  "JsonSchemaStore",
  "Github_ultra",
] as const;

interface BenchFile {
  schema: Record<string, unknown>;
  tests?: { valid: boolean; data: unknown; description?: string }[];
}

/** MaskBench's files (`maskbench/data/<Set>---<name>.json`: schema + tests), by set. */
function readData(root: string, missing: string[]): Map<string, BenchFile[]> {
  const bySet = new Map<string, BenchFile[]>(SETS.map((set) => [set, []]));
  const add = (name: string, text: string) => {
    const set = name.replace(/^.*\//, "").split("---")[0] ?? "";
    bySet.get(set)?.push(JSON.parse(text) as BenchFile);
  };
  const tree = join(root, "maskbench", "data");
  if (existsSync(tree)) {
    for (const name of readdirSync(tree)) add(name, readFileSync(join(tree, name), "utf8"));
    return bySet;
  }
  // A bare git directory (a mirror): every blob read through one `git cat-file --batch`.
  const git = (args: string[], input?: string) =>
    execFileSync("git", [`--git-dir=${root}`, ...args], { input, maxBuffer: 2 ** 31 - 1 });
  const listing = git(["ls-tree", "-r", "HEAD", "maskbench/data"]).toString("utf8").trim().split("\n");
  const entries = listing.map((line) => {
    const [meta = "", name = ""] = line.split("\t");
    return { id: meta.split(" ")[2] ?? "", name };
  });
  const output = git(["cat-file", "--batch"], `${entries.map((entry) => entry.id).join("\n")}\n`);
  let offset = 0;
  for (const entry of entries) {
    const header = output.subarray(offset, output.indexOf(10, offset)).toString("utf8");
    const start = output.indexOf(10, offset) + 1;
    // A mirror may list a large file without holding it: `<id> missing`, no content.
    if (header.endsWith(" missing")) {
      missing.push(entry.name);
      offset = start;
      continue;
    }
    const size = Number(header.split(" ")[2]);
    add(entry.name, output.subarray(start, start + size).toString("utf8"));
    offset = start + size + 1;
  }
  return bySet;
}

function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  return leftKeys.every(
    (key) =>
      Object.hasOwn(right, key) &&
      sameJson((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
  );
}

/**
 * `read` is `written` with only some object keys left out (properties the schema does not declare,
 * which a class does not keep): the documented difference.
 */
function keysLeftOut(read: unknown, written: unknown): boolean {
  if (typeof read !== "object" || typeof written !== "object" || read === null || written === null)
    return read === written;
  if (Array.isArray(read) || Array.isArray(written))
    return (
      Array.isArray(read) &&
      Array.isArray(written) &&
      read.length === written.length &&
      read.every((item, index) => keysLeftOut(item, written[index]))
    );
  return Object.entries(read).every(
    ([key, value]) =>
      Object.hasOwn(written, key) && keysLeftOut(value, (written as Record<string, unknown>)[key]),
  );
}

/** Three ways models write the same JSON: prose + fence, single quotes, trailing commas. */
function messyRenderings(data: unknown): string[] {
  const pretty = JSON.stringify(data, null, 2);
  const renderings = [
    `Sure! Here is the answer:\n\`\`\`json\n${pretty}\n\`\`\`\nLet me know if you need more.`,
  ];
  const text = JSON.stringify(data);
  // Single quotes only where no string holds a quote or a backslash, so the swap is exact.
  if (!/\\|'/.test(text)) renderings.push(text.replaceAll('"', "'"));
  if (typeof data === "object" && data !== null)
    renderings.push(pretty.replace(/(\S)(\n\s*[}\]])/g, "$1,$2"));
  return renderings;
}

interface SetReport {
  set: string;
  schemas: number;
  accepted: number;
  zod: number;
  valid: number;
  validExact: number;
  validKeysLeftOut: number;
  validErrors: number;
  messy: number;
  messySame: number;
  invalid: number;
  invalidErrors: number;
  invalidValuesAccepted: number;
  invalidValuesRejected: number;
  validatorDisagrees: number;
  compileMs: number;
  parseMs: number;
  outputFormatTokens: number;
  schemaTokens: number;
}

function benchSet(
  set: string,
  files: BenchFile[],
  refusals: Map<string, number>,
  coercions: Map<string, number>,
  notExact: Map<string, number>,
): SetReport {
  const encoding = getEncoding("o200k_base");
  const report: SetReport = {
    set,
    schemas: files.length,
    accepted: 0,
    zod: 0,
    valid: 0,
    validExact: 0,
    validKeysLeftOut: 0,
    validErrors: 0,
    messy: 0,
    messySame: 0,
    invalid: 0,
    invalidErrors: 0,
    invalidValuesAccepted: 0,
    invalidValuesRejected: 0,
    validatorDisagrees: 0,
    compileMs: 0,
    parseMs: 0,
    outputFormatTokens: 0,
    schemaTokens: 0,
  };
  for (const file of files) {
    try {
      z.fromJSONSchema(file.schema as Parameters<typeof z.fromJSONSchema>[0]);
      report.zod += 1;
    } catch {
      // Counted as not converted.
    }
    let typed: ReturnType<typeof jsonSchemaTypedSchema>;
    const compileStart = performance.now();
    try {
      typed = jsonSchemaTypedSchema(file.schema);
    } catch (error) {
      report.compileMs += performance.now() - compileStart;
      const construct = UnsupportedSchemaError.isInstance(error)
        ? error.feature.replace(/"[^"]*"/g, '"…"')
        : `crash: ${String(error).slice(0, 60)}`;
      refusals.set(construct, (refusals.get(construct) ?? 0) + 1);
      continue;
    }
    report.compileMs += performance.now() - compileStart;
    report.accepted += 1;
    report.outputFormatTokens += encoding.encode(outputFormat(file.schema)).length;
    report.schemaTokens += encoding.encode(JSON.stringify(file.schema)).length;
    for (const test of file.tests ?? []) {
      // The validator's own verdict on the instance as written; where it differs from the label, the
      // instance is counted apart (the validator decides what a schema allows).
      const judged = typed.validate(test.data);
      const validatorSaysValid = !(judged instanceof Promise) && "value" in judged;
      if (validatorSaysValid !== test.valid) {
        report.validatorDisagrees += 1;
        continue;
      }
      const text = JSON.stringify(test.data);
      const parseStart = performance.now();
      let read: { ok: true; value: unknown } | { ok: false };
      let cause = "";
      try {
        const result = parse(file.schema, text);
        read = { ok: true, value: result.value };
        cause = [...new Set(result.flags.map((flag) => flag.kind))].sort().join(" + ") || "no flag";
        if (!test.valid) {
          const kinds = [...new Set(result.flags.map((flag) => flag.kind))].sort().join(" + ") || "no flag";
          coercions.set(kinds, (coercions.get(kinds) ?? 0) + 1);
        }
      } catch (error) {
        cause = SchemaParseError.isInstance(error) ? `error: ${error.code}` : "crash";
        if (!SchemaParseError.isInstance(error)) {
          const construct = `parse crash: ${String(error).slice(0, 80)}`;
          refusals.set(construct, (refusals.get(construct) ?? 0) + 1);
        }
        read = { ok: false };
      }
      report.parseMs += performance.now() - parseStart;
      if (test.valid) {
        report.valid += 1;
        if (!read.ok) report.validErrors += 1;
        else if (sameJson(read.value, test.data)) report.validExact += 1;
        else if (keysLeftOut(read.value, test.data)) report.validKeysLeftOut += 1;
        if (!read.ok || !sameJson(read.value, test.data)) notExact.set(cause, (notExact.get(cause) ?? 0) + 1);
        for (const rendering of messyRenderings(test.data)) {
          report.messy += 1;
          let messy: { ok: true; value: unknown } | { ok: false };
          try {
            messy = { ok: true, value: parse(file.schema, rendering).value };
          } catch {
            messy = { ok: false };
          }
          if (messy.ok === read.ok && (!read.ok || (messy.ok && sameJson(messy.value, read.value))))
            report.messySame += 1;
        }
      } else {
        report.invalid += 1;
        if (!read.ok) report.invalidErrors += 1;
        else {
          const outcome = typed.validate(read.value);
          if (!(outcome instanceof Promise) && "value" in outcome) report.invalidValuesAccepted += 1;
          else report.invalidValuesRejected += 1;
        }
      }
    }
  }
  return report;
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`;

export async function benchJsonschema(): Promise<string> {
  const root = process.env.JSONSCHEMABENCH;
  if (!root || !existsSync(root))
    throw new Error(
      "Set JSONSCHEMABENCH to a clone of https://github.com/guidance-ai/jsonschemabench (or a bare git " +
        "directory of it): the data is read at run time and never committed here.",
    );
  const missing: string[] = [];
  const data = readData(root, missing);
  const refusals = new Map<string, number>();
  // JSONSCHEMABENCH_SETS=Snowplow,Kubernetes runs only those sets (a quick look).
  const only = process.env.JSONSCHEMABENCH_SETS?.split(",");
  const sets = SETS.filter((set) => !only || only.includes(set));
  const coercions = new Map<string, number>();
  const notExact = new Map<string, number>();
  const reports = sets.map((set) => benchSet(set, data.get(set) ?? [], refusals, coercions, notExact));
  const total: SetReport = { ...(reports[0] as SetReport), set: "**all**" };
  for (const key of Object.keys(total) as (keyof SetReport)[]) {
    if (key === "set") continue;
    (total[key] as number) = reports.reduce((sum, report) => sum + (report[key] as number), 0);
  }
  const rows = [...reports, total].map((report) =>
    [
      report.set,
      report.schemas,
      percent(report.accepted, report.schemas),
      percent(report.zod, report.schemas),
      report.valid,
      percent(report.validExact, report.valid),
      percent(report.validExact + report.validKeysLeftOut, report.valid),
      percent(report.messySame, report.messy),
      report.invalid,
      report.invalidValuesAccepted,
      report.invalidValuesRejected,
      report.validatorDisagrees,
      (report.compileMs / Math.max(1, report.accepted)).toFixed(2),
      (report.parseMs / Math.max(1, report.valid + report.invalid)).toFixed(3),
      (report.outputFormatTokens / Math.max(1, report.schemaTokens)).toFixed(2),
    ].join(" | "),
  );
  const refused = [...refusals].sort((left, right) => right[1] - left[1]).slice(0, 12);
  return [
    "## JSON Schema in: JSONSchemaBench",
    "",
    "`sapling-llm/json-schema` on the 9,558 schemas of JSONSchemaBench's ten sets with MaskBench's",
    "labelled instances (github.com/guidance-ai/jsonschemabench, read at run time; data MIT). Each",
    "instance is written as JSON and parsed; valid ones also in three messy renderings (prose + fence,",
    "single quotes, trailing commas). *exact+* counts values whose only difference is a property the",
    "schema does not declare, left out (a class keeps declared properties only). *invalid → value*: an",
    "invalid instance read into a value the schema accepts (a flagged coercion: rounding, a dropped",
    "item, an undeclared key dropped); *breaks schema* must be 0. Instances the",
    "validator judges differently from MaskBench's label are set apart. Times per schema (compile) and",
    "per instance (parse, validation included). Tokens: o200k_base, `outputFormat` / minified schema.",
    "",
    "| set | schemas | accepted | Zod fromJSONSchema | valid | exact | exact+ | messy same | invalid | invalid → value | breaks schema | validator disagrees | compile ms | parse ms | tokens ratio |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map((row) => `| ${row} |`),
    "",
    `Refused, by construct (${total.schemas - total.accepted} schemas):`,
    "",
    ...refused.map(([construct, count]) => `- ${construct}: ${count}`),
    "",
    "Valid instances not read back exactly, by cause (the parser's flags, or the error):",
    "",
    ...[...notExact]
      .sort((left, right) => right[1] - left[1])
      .map(([cause, count]) => `- ${cause}: ${count}`),
    "",
    "Invalid instances read into a value, by the parser's flags (what it changed to make the value fit):",
    "",
    ...[...coercions]
      .sort((left, right) => right[1] - left[1])
      .slice(0, 10)
      .map(([kinds, count]) => `- ${kinds}: ${count}`),
    "",
    ...(missing.length > 0
      ? [
          `${missing.length} files listed but absent from the copy read, left out: ${missing.slice(0, 5).join(", ")}.`,
          "",
        ]
      : []),
    "Command: `JSONSCHEMABENCH=/path/to/jsonschemabench npm run bench -- jsonschema`.",
  ].join("\n");
}

if (process.argv[1] === import.meta.filename) process.stdout.write(`${await benchJsonschema()}\n`);
