/**
 * `codegen` benchmark: `generateClient` (IR → the ten baml_client modules) on the resume example and on
 * a generated project of 200 groups (each: a dynamic enum, an alias, two classes with checks and
 * `@stream` attributes, a function), compiled once with the language front end. Reports the median time
 * of several runs after warm-up and the size of the output (most of it the embedded IR, `ir.ts`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateClient } from "../src/codegen/index.js";
import type { Ir } from "../src/ir/index.js";
import { compile } from "../src/language/index.js";

const groups = 200;
const warmup = 3;
const runs = 9;

function group(index: number): string {
  return `enum Status${index} {
  ACTIVE
  CHURNED
  @@dynamic
}

type Tags${index} = string[] | map<string, Tags${index}>

class Address${index} {
  street string @stream.not_null
  city string @stream.with_state
  postal_code string?
}

/// A customer, group ${index}.
class Customer${index} {
  name string @check(named, {{ this|length > 0 }})
  status Status${index}
  addresses (Address${index} @stream.done)[]
  tags Tags${index}?
  kind "person" | "company"
}

function Extract${index}(text: string, hint: string?) -> Customer${index} {
  client "openai/gpt-4o-mini"
  prompt #"{{ text }} {{ ctx.output_format }}"#
}
`;
}

function compileProject(sources: Record<string, string>): Ir {
  const { ir, diagnostics } = compile(sources);
  if (!ir) throw new Error(`benchmark project does not compile: ${diagnostics[0]?.message ?? "?"}`);
  return ir;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function measure(ir: Ir): { milliseconds: number; bytes: number } {
  const generator = ir.generators[0] ?? {
    name: "target",
    outputType: "typescript",
    outputDir: "../",
    options: {},
  };
  let bytes = 0;
  const times: number[] = [];
  for (let run = 0; run < warmup + runs; run++) {
    const start = performance.now();
    const files = generateClient(ir, generator);
    const elapsed = performance.now() - start;
    if (run >= warmup) times.push(elapsed);
    bytes = Object.values(files).reduce((total, text) => total + text.length, 0);
  }
  return { milliseconds: median(times), bytes };
}

export async function benchCodegen(): Promise<string> {
  const resumeFolder = join(import.meta.dirname, "..", "examples", "resume", "baml_src");
  const resume = compileProject({
    "resume.baml": readFileSync(join(resumeFolder, "resume.baml"), "utf8"),
    "clients.baml": readFileSync(join(resumeFolder, "clients.baml"), "utf8"),
  });
  const large = compileProject(
    Object.fromEntries(Array.from({ length: groups }, (_, index) => [`group${index}.baml`, group(index)])),
  );
  const rows = [
    ["resume example (2 classes, 1 enum, 1 function)", measure(resume)],
    [
      `${groups} groups (${large.classes.length} classes, ${large.enums.length} enums, ${large.aliases.length} aliases, ${large.functions.length} functions)`,
      measure(large),
    ],
  ] as const;
  return [
    "## Code generation",
    "",
    `\`generateClient\`: IR → the ten \`baml_client/\` modules, median of ${runs} runs after ${warmup} warm-up runs.`,
    "",
    "| project | time | output |",
    "|---|---:|---:|",
    ...rows.map(
      ([name, result]) =>
        `| ${name} | ${result.milliseconds.toFixed(2)} ms | ${(result.bytes / 1024).toFixed(0)} KiB |`,
    ),
  ].join("\n");
}
