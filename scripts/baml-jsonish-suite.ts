/**
 * Runs BAML's own parser test cases (the `test_deserializer!` family in BAML's
 * `engine/baml-lib/jsonish/src/tests/*.rs`) through Sapling, and optionally through the real BAML in
 * node_modules, and prints how many agree. BAML's files are not part of this repository: point the
 * script at a local copy.
 *
 *   npx tsx scripts/baml-jsonish-suite.ts <folder with the .rs files> [--baml] [--list] [--prefix]
 *   BAML_JSONISH_TESTS=<folder> npx tsx scripts/baml-jsonish-suite.ts
 *
 * A case is its schema text, answer text, target type (a Rust `FieldType` expression, translated to a
 * BAML type expression) and expected JSON (or failure). Final-mode cases by default; `--prefix` runs the
 * prefix-mode ones (`test_partial_deserializer*!`: the answer is the start of one) with
 * `{ partial: true }` instead, where BAML's streaming expectations (`@stream.*` states, `serialize_partial`)
 * are not Sapling's partial values, so only the count is shown. Cases whose parts this reader cannot
 * translate are counted as skipped. Differences that are deliberate are listed, with their reasons, in
 * docs/sap.md.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseWithSchema } from "../src/parse-with-schema.js";
import { SapConfigurationError, SapParseError } from "../src/sap/index.js";
import { bamlFinalParser, bamlTargets, loadBaml } from "./baml-final-parser.js";

interface SuiteCase {
  file: string;
  name: string;
  schema: string;
  raw: string;
  type: string;
  /**
   * `value`: parses to `expected`; `fails`: must fail; `parses`: must parse (BAML's
   * `test_deserializer_with_expected_score` checks only a score, which Sapling's scores do not mirror).
   */
  kind: "value" | "fails" | "parses";
  expected?: unknown;
}

// ---------------------------------------------------------------------------------------------------
// Reading Rust source: string literals, balanced macro arguments, constants

/** Reads a Rust string literal (`"…"` with escapes, or `r#"…"#`) at `at`; returns it and where it ends. */
function readRustString(text: string, at: number): { value: string; end: number } | undefined {
  if (text[at] === "r") {
    let hashes = 0;
    let index = at + 1;
    while (text[index] === "#") {
      hashes++;
      index++;
    }
    if (text[index] !== '"') return undefined;
    const closer = `"${"#".repeat(hashes)}`;
    const end = text.indexOf(closer, index + 1);
    if (end < 0) return undefined;
    return { value: text.slice(index + 1, end), end: end + closer.length };
  }
  if (text[at] !== '"') return undefined;
  let value = "";
  let index = at + 1;
  while (index < text.length && text[index] !== '"') {
    if (text[index] === "\\") {
      const next = text[index + 1];
      const escapes: Record<string, string> = {
        n: "\n",
        t: "\t",
        r: "\r",
        '"': '"',
        "\\": "\\",
        "'": "'",
        "0": "\0",
      };
      if (next === "\n") {
        // A line continuation: skip the break and the next line's indentation.
        index += 2;
        while (/\s/.test(text[index] ?? "")) index++;
        continue;
      }
      if (next === "u") {
        const close = text.indexOf("}", index);
        value += String.fromCodePoint(Number.parseInt(text.slice(index + 3, close), 16));
        index = close + 1;
        continue;
      }
      value += escapes[next ?? ""] ?? next ?? "";
      index += 2;
      continue;
    }
    value += text[index];
    index++;
  }
  return { value, end: index + 1 };
}

/** The top-level comma-separated arguments of the macro call whose `(` is at `open`. */
function macroArguments(text: string, open: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  let index = open;
  while (index < text.length) {
    const char = text[index]!;
    if (
      char === '"' ||
      (char === "r" && /^r#*"/.test(text.slice(index, index + 8)) && !/\w/.test(text[index - 1] ?? ""))
    ) {
      const literal = readRustString(text, index);
      if (literal) {
        index = literal.end;
        continue;
      }
    }
    if (char === "/" && text[index + 1] === "/") {
      index = text.indexOf("\n", index);
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") {
      depth--;
      if (depth === 0) {
        args.push(text.slice(start, index).trim());
        return { args, end: index + 1 };
      }
    } else if (char === "," && depth === 1) {
      args.push(text.slice(start, index).trim());
      start = index + 1;
    }
    index++;
  }
  return { args, end: text.length };
}

function constants(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(/const\s+([A-Z_0-9]+)\s*:\s*&str\s*=\s*/g)) {
    const literal = readRustString(text, match.index + match[0].length);
    if (literal) found.set(match[1]!, literal.value);
  }
  return found;
}

function stringArgument(argument: string, known: Map<string, string>): string | undefined {
  const trimmed = argument.trim();
  if (known.has(trimmed)) return known.get(trimmed);
  const literal = readRustString(trimmed, 0);
  return literal && literal.end === trimmed.length ? literal.value : undefined;
}

// ---------------------------------------------------------------------------------------------------
// FieldType expressions → BAML type expressions

/** Translates `FieldType::Class("Foo".to_string()).as_list()` and the like; undefined when unknown. */
function bamlType(expression: string): string | undefined {
  // A block that builds the type and sets streaming metadata: `{ let mut res = EXPR; …; res }`.
  const block = /^\{\s*let\s+mut\s+\w+\s*=\s*([\s\S]*?);[\s\S]*\}$/.exec(expression.trim());
  let rest = (block ? block[1]! : expression).replace(/\s+/g, " ").trim();
  const parseOne = (): string | undefined => {
    rest = rest.trimStart();
    const head = /^(?:baml_types::)?(FieldType|TypeIR)::(?:r#)?([A-Za-z_]+)/.exec(rest);
    if (!head) return undefined;
    rest = rest.slice(head[0].length);
    const name = head[2]!;
    let inner: string[] = [];
    if (rest.startsWith("(")) {
      const { args, end } = macroArguments(rest, 0);
      rest = rest.slice(end);
      inner = args.filter((arg) => arg !== "");
    }
    let result = translate(name, inner);
    // Method chains: .as_list(), .as_optional(), .into(), .to_string()
    for (;;) {
      const method = /^\s*\.(as_list|as_optional|into|as_ref|clone)\(\)/.exec(rest);
      if (!method) break;
      rest = rest.slice(method[0].length);
      if (result === undefined) continue;
      if (method[1] === "as_list") result = `${wrap(result)}[]`;
      if (method[1] === "as_optional") result = `${wrap(result)}?`;
    }
    return result;
  };
  const sub = (text: string): string | undefined =>
    bamlType(text.replace(/^Box::new\((.*)\)$/s, "$1").replace(/\.into\(\)$/, ""));
  const nameOf = (text: string) => /"([^"]+)"/.exec(text)?.[1];
  const translate = (name: string, args: string[]): string | undefined => {
    switch (name) {
      case "string":
      case "int":
      case "float":
      case "bool":
      case "null":
        return name;
      case "Primitive": {
        const value = /TypeValue::(\w+)/.exec(args[0] ?? "")?.[1];
        return value
          ? { String: "string", Int: "int", Float: "float", Bool: "bool", Null: "null" }[value]
          : undefined;
      }
      case "Class":
      case "class":
      case "recursive_type_alias":
      case "Enum":
      case "enum":
        return nameOf(args[0] ?? "");
      case "List":
      case "list": {
        const item = sub(args[0] ?? "");
        return item && `${wrap(item)}[]`;
      }
      case "Optional":
      case "optional": {
        const item = sub(args[0] ?? "");
        return item && `${wrap(item)}?`;
      }
      case "Map":
      case "map": {
        const key = sub(args[0] ?? "");
        const value = sub(args[1] ?? "");
        return key && value && `map<${key}, ${value}>`;
      }
      case "Union":
      case "union": {
        const list = /vec!\s*\[(.*)\]/s.exec(args.join(","))?.[1];
        if (!list) return undefined;
        const options = macroArguments(`(${list})`, 0)
          .args.filter((arg) => arg !== "")
          .map(sub);
        return options.every((option) => option !== undefined) ? options.join(" | ") : undefined;
      }
      case "Literal":
      case "literal_string":
      case "literal_int":
      case "literal_bool": {
        const text = args.join(",");
        const string =
          /LiteralValue::String\("((?:[^"\\]|\\.)*)"/.exec(text)?.[1] ??
          (name === "literal_string" ? /"((?:[^"\\]|\\.)*)"/.exec(text)?.[1] : undefined);
        if (string !== undefined) return JSON.stringify(string);
        const int =
          /LiteralValue::Int\((-?\d+)\)/.exec(text)?.[1] ??
          (name === "literal_int" ? /(-?\d+)/.exec(text)?.[1] : undefined);
        if (int !== undefined) return int;
        const bool =
          /LiteralValue::Bool\((true|false)\)/.exec(text)?.[1] ??
          (name === "literal_bool" ? /(true|false)/.exec(text)?.[1] : undefined);
        return bool;
      }
      default:
        return undefined;
    }
  };
  const result = parseOne();
  return rest.trim() === "" ? result : undefined;
}

function wrap(type: string): string {
  return /[|?]/.test(type) && !type.endsWith("]") ? `(${type})` : type;
}

// ---------------------------------------------------------------------------------------------------

/**
 * The expected value, a `serde_json::json!` token tree, as JSON: Rust string literals (raw ones too)
 * become JSON strings, `vec![…]` a list, `1.` a number, comments and trailing commas go, and a
 * `json!(…)` wrapper is unwrapped. Undefined when what is left is not plain JSON.
 */
function expectedJson(text: string): unknown {
  let body = text.trim();
  const wrapped = /^(?:serde_json::)?json!\s*\(([\s\S]*)\)$/.exec(body);
  if (wrapped) body = wrapped[1]!.trim();
  let json = "";
  let index = 0;
  while (index < body.length) {
    const char = body[index]!;
    const rawStart =
      char === "r" && /^r#*"/.test(body.slice(index, index + 8)) && !/\w/.test(body[index - 1] ?? "");
    if (char === '"' || rawStart) {
      const literal = readRustString(body, index);
      if (!literal) return undefined;
      json += JSON.stringify(literal.value);
      index = literal.end;
      if (body.startsWith(".to_string()", index)) index += ".to_string()".length;
      continue;
    }
    if (char === "/" && body[index + 1] === "/") {
      const end = body.indexOf("\n", index);
      index = end < 0 ? body.length : end;
      continue;
    }
    if (body.startsWith("vec!", index)) {
      index += 4;
      continue;
    }
    const number = /^-?\d+(\.\d*)?(?:[eE][-+]?\d+)?/.exec(body.slice(index));
    if (number && !/\w/.test(body[index - 1] ?? "")) {
      json += number[0].endsWith(".") ? `${number[0]}0` : number[0];
      index += number[0].length;
      const suffix = /^(?:i|u|f)(?:8|16|32|64|128)\b/.exec(body.slice(index)); // 12i64
      if (suffix) index += suffix[0].length;
      continue;
    }
    json += char;
    index++;
  }
  try {
    return JSON.parse(json.replace(/,(\s*[}\]])/g, "$1"));
  } catch {
    return undefined;
  }
}

/** A string argument: a literal or a constant, after leading `//` comment lines, with `.trim()` applied. */
function answerArgument(argument: string, known: Map<string, string>): string | undefined {
  let text = argument.replace(/^(\s*\/\/[^\n]*\n)+/, "").trim();
  const trim = text.endsWith(".trim()");
  if (trim) text = text.slice(0, -".trim()".length);
  const value = stringArgument(text, known);
  return trim ? value?.trim() : value;
}

/**
 * The cases of one mode: final (`test_deserializer!`, `test_failing_deserializer!`,
 * `test_deserializer_with_expected_score!`) or prefix (`test_partial_deserializer!`,
 * `test_partial_deserializer_streaming!`, `…_streaming_failure!`: the answer is the start of one).
 */
function readSuite(
  folder: string,
  prefix: boolean,
): {
  cases: SuiteCase[];
  skipped: { file: string; name: string; why: string }[];
  /** The cases of the other mode, not read. */
  otherMode: number;
} {
  const cases: SuiteCase[] = [];
  let otherMode = 0;
  const skipped: { file: string; name: string; why: string }[] = [];
  const files = readdirSync(folder)
    .filter((name) => name.endsWith(".rs") && name !== "macros.rs")
    .sort();
  // Constants are shared between the files (mod.rs declares some that the others use).
  const shared = new Map(files.flatMap((file) => [...constants(readFileSync(join(folder, file), "utf8"))]));
  const macros = prefix
    ? /\b(test_partial_deserializer|test_partial_deserializer_streaming|test_partial_deserializer_streaming_failure)!\s*\(/g
    : /\b(test_deserializer|test_failing_deserializer|test_deserializer_with_expected_score)!\s*\(/g;
  const others = prefix
    ? /\b(?:test_deserializer|test_failing_deserializer|test_deserializer_with_expected_score)!\s*\(/g
    : /\btest_partial_deserializer\w*!\s*\(/g;
  for (const file of files) {
    const text = readFileSync(join(folder, file), "utf8");
    const known = new Map([...shared, ...constants(text)]);
    for (const match of text.matchAll(others)) {
      const lineStart = text.lastIndexOf("\n", match.index) + 1;
      if (!text.slice(lineStart, match.index).includes("//")) otherMode++;
    }
    for (const match of text.matchAll(macros)) {
      const lineStart = text.lastIndexOf("\n", match.index) + 1;
      if (text.slice(lineStart, match.index).includes("//")) continue; // commented out
      const { args } = macroArguments(text, match.index + match[0].length - 1);
      const [name = "?", schemaArg = "", rawArg = "", typeArg = "", ...json] = args;
      const schema = answerArgument(schemaArg, known);
      const raw = answerArgument(rawArg, known);
      const type = bamlType(typeArg);
      const skip = (why: string) => skipped.push({ file, name, why });
      if (schema === undefined) skip(`schema ${schemaArg.slice(0, 40)}`);
      else if (raw === undefined) skip(`answer ${rawArg.slice(0, 40)}`);
      else if (type === undefined) skip(`type ${typeArg.slice(0, 60)}`);
      else if (
        match[1] === "test_failing_deserializer" ||
        match[1] === "test_partial_deserializer_streaming_failure"
      )
        cases.push({ file, name, schema, raw, type, kind: "fails" });
      else if (match[1] === "test_deserializer_with_expected_score")
        cases.push({ file, name, schema, raw, type, kind: "parses" });
      else {
        const expected = expectedJson(json.join(","));
        if (expected === undefined) skip(`expected ${json.join(",").slice(0, 40)}`);
        else cases.push({ file, name, schema, raw, type, kind: "value", expected });
      }
    }
  }
  return { cases, skipped, otherMode };
}

/**
 * BAML cases where Sapling differs on purpose, by test name, each with the rule it follows (the reasons
 * are written out in docs/sap.md, "BAML's own parser tests").
 */
const DELIBERATE: Record<string, string> = {
  test_null_2: "Python None/Null is null",
  test_null_3: "Python None/Null is null",
  test_string: "a quoted answer that is valid JSON is the string inside the quotes",
  test_string_from_string_with_quotes: "a quoted answer that is valid JSON is the string inside the quotes",
  test_incomplete_string: "a quoted answer cut off before its closing quote is the string inside the quotes",
  test_union_literal_string_with_both: "two different values named is an error",
  multi_aliases: "two different values named is an error",
  multi_aliases_1: "two different values named is an error",
  test_original_enum_values_fail_when_aliases_exist:
    "an enum value's declared name names it behind an @alias",
  test_original_enum_values_fail_with_french_aliases:
    "an enum value's declared name names it behind an @alias",
  test_original_priority_values_fail_with_aliases: "an enum value's declared name names it behind an @alias",
  test_multiple_original_enum_values_fail: "an enum value's declared name names it behind an @alias",
  test_skip_field: "follows BAML 0.226.2, which leaves the @skip field out",
  // BAML's tests of October 2024 expect a value with a score where BAML 0.226.2 itself raises.
  test_class_failing_assert: "follows BAML 0.226.2: a failing @assert fails the parse",
  test_class_multiple_failing_asserts: "follows BAML 0.226.2: a failing @assert fails the parse",
  test_union_decision_in_list: "follows BAML 0.226.2: a failing @assert fails the parse",
  test_email_regex: "follows BAML 0.226.2: a failing @check does not choose the union arm",
};

/**
 * Open differences that are known and belong to an issue's work, by test name or by file: shown with
 * their note in `--list`, still counted as open.
 */
const KNOWN_OPEN: Record<string, string> = {
  // (None since 2026-12-07: BAML's XML and TOON output formats, issue 38's, are read.)
};

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

function runSapling(entry: SuiteCase, partial: boolean): Outcome {
  try {
    return { ok: true, value: parseWithSchema(entry.schema, entry.type, entry.raw, { partial }).value };
  } catch (error) {
    if (SapParseError.isInstance(error) || error instanceof SapConfigurationError)
      return { ok: false, error: (error as Error).message.split("\n")[0]! };
    return { ok: false, error: `compile: ${(error as Error).message.split("\n").slice(0, 3).join(" ")}` };
  }
}

async function bamlRunner(): Promise<(entry: SuiteCase) => Outcome> {
  const baml = await loadBaml();
  return (entry) =>
    bamlFinalParser(baml, bamlTargets(entry.schema, new Map([[entry.type, "SuiteTarget"]])))(
      "SuiteTarget",
      entry.raw,
    );
}

function agrees(entry: SuiteCase, outcome: Outcome): boolean {
  if (entry.kind === "fails") return !outcome.ok;
  if (entry.kind === "parses") return outcome.ok;
  return outcome.ok && JSON.stringify(sortKeys(outcome.value)) === JSON.stringify(sortKeys(entry.expected));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  return value;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const folder = argv.find((arg) => !arg.startsWith("--")) ?? process.env.BAML_JSONISH_TESTS;
  if (!folder) {
    throw new Error(
      "Give the folder holding BAML's engine/baml-lib/jsonish/src/tests/*.rs (a local copy, not committed): " +
        "npx tsx scripts/baml-jsonish-suite.ts <folder> [--baml] [--list] [--prefix], or BAML_JSONISH_TESTS=<folder>.",
    );
  }
  const only = argv.find((arg) => arg.startsWith("--case="))?.slice("--case=".length);
  const prefix = argv.includes("--prefix");
  const suite = readSuite(folder, prefix);
  const skipped = suite.skipped;
  const perFile = new Map<string, { total: number; agree: number; onPurpose: number }>();
  const cases = only ? suite.cases.filter((entry) => entry.name === only) : suite.cases;
  const limit = only ? Number.POSITIVE_INFINITY : 160;
  if (prefix && argv.includes("--baml")) throw new Error("--baml runs final-mode cases only.");
  const baml = argv.includes("--baml") ? await bamlRunner() : undefined;
  const differences: string[] = [];
  let saplingAgrees = 0;
  let onPurpose = 0;
  let bamlAgrees = 0;
  for (const entry of cases) {
    const sapling = runSapling(entry, prefix);
    const ok = agrees(entry, sapling);
    if (ok) saplingAgrees++;
    const bamlOutcome = baml?.(entry);
    if (bamlOutcome && agrees(entry, bamlOutcome)) bamlAgrees++;
    const reason = ok || prefix ? undefined : DELIBERATE[entry.name];
    if (reason) onPurpose++;
    const tally = perFile.get(entry.file) ?? { total: 0, agree: 0, onPurpose: 0 };
    perFile.set(entry.file, tally);
    tally.total++;
    if (ok) tally.agree++;
    if (reason) tally.onPurpose++;
    const known = prefix ? undefined : (KNOWN_OPEN[entry.name] ?? KNOWN_OPEN[entry.file]);
    if (!ok) {
      const expected =
        entry.kind === "fails"
          ? "an error"
          : entry.kind === "parses"
            ? "a value"
            : JSON.stringify(entry.expected);
      const got = sapling.ok ? JSON.stringify(sapling.value) : `error: ${sapling.error}`;
      const real = bamlOutcome
        ? ` | BAML: ${bamlOutcome.ok ? JSON.stringify(bamlOutcome.value) : "error"}`
        : "";
      differences.push(
        `${reason ? `on purpose (${reason}): ` : known ? `OPEN (${known}): ` : "OPEN: "}${entry.file} ${entry.name} [${entry.type}]${only ? `\n    schema: ${entry.schema}` : ""}\n    answer: ${JSON.stringify(entry.raw).slice(0, limit)}\n    expected: ${expected.slice(0, limit)}\n    Sapling: ${got.slice(0, limit)}${real.slice(0, limit + 20)}`,
      );
    }
  }
  if (argv.includes("--list") || only) {
    for (const line of differences) console.log(line);
    for (const skip of skipped) console.log(`skipped ${skip.file} ${skip.name}: ${skip.why}`);
    for (const [file, tally] of perFile)
      console.log(`${file}: ${tally.total} cases, ${tally.agree} agree, ${tally.onPurpose} on purpose`);
  }
  console.log(
    `${cases.length} ${prefix ? "prefix-mode" : "final-parse"} cases (${skipped.length} skipped): Sapling agrees with ${saplingAgrees}, ` +
      `differs on purpose on ${onPurpose} (agree or on purpose: ${saplingAgrees + onPurpose}, ` +
      `${((100 * (saplingAgrees + onPurpose)) / Math.max(cases.length, 1)).toFixed(1)}%), ` +
      `open ${cases.length - saplingAgrees - onPurpose}` +
      (baml ? `; BAML 0.226.2 agrees with ${bamlAgrees}` : "") +
      `; ${suite.otherMode} ${prefix ? "final-parse" : "prefix-mode (--prefix)"} cases not run`,
  );
}

await main();
