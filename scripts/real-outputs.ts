/**
 * Real model answers nobody here wrote — recorded in public repositories (benchmark result files, VCR
 * cassettes of agent frameworks, function-calling leaderboard runs) — read by Sapling (final mode and the
 * stream parser) and by the real BAML 0.226.2, each scored against an expected value written by hand
 * after reading the answer. The recorded texts are not part of this repository: the manifest names where
 * each one is, and the script reads it at run time from local git snapshots of those repositories.
 *
 *   npx tsx scripts/real-outputs.ts [--mirrors <dir>] [--also <checkout>] [--list] [--case=<name>]
 *
 * `--mirrors` (or REAL_OUTPUTS_MIRRORS) is the folder holding one bare git directory per repository at
 * `<dir>/<owner>+<name>/repo` (default /work/.mirror, where the session's `fetch` tool puts them); a
 * repository missing there is reported with the cases it skips. `--list` prints every case a reader did
 * not get right, with both values. `--also <checkout>` reads the answers with the Sapling of another
 * checkout too (its src/, e.g. /work/wt/base), for a before/after table in one run.
 *
 * Manifest format (bench/real-outputs/manifest.txt; declarations in bench/real-outputs/declarations.baml):
 *
 * ```
 * # comment lines
 * source: owner/name@<40-hex commit>          (applies to the cases below it, until the next source:)
 *
 * === a readable case name
 * file: path/inside/the/repository.json       (read with `git show <commit>:<path>`)
 * at: json /failed_responses/3/response       (where the answer is in that file; see below)
 * type: ContextScore                          (a BAML type expression over declarations.baml)
 * value: {"context_score": 5}                 (the value the answer names, as JSON; or `error` when
 *                                              the text does not hold a value of the type)
 * ```
 *
 * A long expected string is written `start…end` (U+2026 between a start and an end): it matches a string
 * that starts and ends so, so the manifest need not copy the recorded sentence. Each reader's outcome is
 * right, a wrong value (a different value, or any value where `error` was expected), or an error.
 *
 * Locators (`at:`), one step or several joined with ` | `, each applied to the text the previous one gave:
 * - `json <pointer>`: the text is JSON; the RFC 6901 pointer names a string (the answer).
 * - `jsonl <line> <pointer>`: the text is JSON Lines; the 0-based line, then the pointer.
 * - `yaml <key> <n>`: the text is YAML; the n-th (0-based) scalar written as the value of `<key>:`
 *   (plain, quoted, or a `|`/`|-` block), in file order.
 * - `after <n> <JSON string>`: the text after the n-th (0-based) occurrence of the string.
 * - `through <JSON string>`: the text up to the first occurrence of the string, the string included.
 * A pointer naming a list of strings (a notebook output's lines) gives them joined.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as SchemaModule from "../src/parse-with-schema.js";
import type * as PromptModule from "../src/prompt/index.js";
import type * as SapModule from "../src/sap/index.js";
import { bamlFinalParser, bamlTargets, loadBaml } from "./baml-final-parser.js";

const FOLDER = join(import.meta.dirname, "..", "bench", "real-outputs");

interface RealCase {
  name: string;
  repo: string;
  commit: string;
  file: string;
  at: string;
  type: string;
  /** The expected value, or `error` when the answer holds no value of the type. */
  expected: { value: unknown } | "error";
  line: number;
}

function readManifest(text: string): RealCase[] {
  const cases: RealCase[] = [];
  let source: { repo: string; commit: string } | undefined;
  let current: Partial<RealCase> & { headers: Map<string, string> } = { headers: new Map() };
  const finish = () => {
    if (current.name === undefined) return;
    const get = (key: string) => {
      const value = current.headers.get(key);
      if (value === undefined)
        throw new Error(`manifest:${current.line}: case "${current.name}" has no ${key}:`);
      return value;
    };
    if (!source) throw new Error(`manifest:${current.line}: a case before any source: line`);
    const value = get("value");
    cases.push({
      name: current.name,
      repo: source.repo,
      commit: source.commit,
      file: get("file"),
      at: get("at"),
      type: get("type"),
      expected: value === "error" ? "error" : { value: JSON.parse(value) },
      line: current.line!,
    });
  };
  text.split("\n").forEach((line, index) => {
    if (line.startsWith("#") || line.trim() === "") return;
    if (line.startsWith("=== ")) {
      finish();
      current = { name: line.slice(4).trim(), line: index + 1, headers: new Map() };
      return;
    }
    const header = /^([a-z]+):\s?(.*)$/.exec(line);
    if (!header)
      throw new Error(`manifest:${index + 1}: expected "key: value", found ${JSON.stringify(line)}`);
    if (header[1] === "source") {
      finish();
      current = { headers: new Map() };
      const match = /^([\w.-]+\/[\w.-]+)@([0-9a-f]{40})$/.exec(header[2]!.trim());
      if (!match) throw new Error(`manifest:${index + 1}: source: wants owner/name@<40-hex commit>`);
      source = { repo: match[1]!, commit: match[2]! };
      return;
    }
    if (current.name === undefined) throw new Error(`manifest:${index + 1}: a header outside a case`);
    current.headers.set(header[1]!, header[2]!);
  });
  finish();
  return cases;
}

// ---------------------------------------------------------------------------------------------------
// Locating the answer inside a recorded file

function pointer(value: unknown, path: string): unknown {
  if (path === "") return value;
  let at = value;
  for (const raw of path.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (at === null || typeof at !== "object" || !(key in at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function asText(value: unknown, step: string): string {
  // A notebook keeps an output's text as a list of lines.
  if (Array.isArray(value) && value.every((line) => typeof line === "string")) return value.join("");
  if (typeof value !== "string")
    throw new Error(`${step} names ${JSON.stringify(value)?.slice(0, 60)}, not a string`);
  return value;
}

/**
 * The n-th scalar written as the value of `key:` in a YAML text. Reads what recorded cassettes use: plain
 * scalars (continued on more-indented lines), single- and double-quoted scalars (folded over lines), and
 * literal blocks (`|`, `|-`, `|+`). Folded blocks (`>`) are refused rather than read approximately.
 */
function yamlScalar(text: string, key: string, n: number): string {
  const lines = text.split("\n");
  const keyLine = new RegExp(`^(\\s*(?:- )*)${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:(?:\\s+(.*))?$`);
  let seen = 0;
  for (let index = 0; index < lines.length; index++) {
    const match = keyLine.exec(lines[index]!);
    if (!match || seen++ < n) continue;
    const indent = match[1]!.length;
    const rest = (match[2] ?? "").trimEnd();
    const more: string[] = [];
    for (let next = index + 1; next < lines.length; next++) {
      const line = lines[next]!;
      if (line.trim() !== "" && line.length - line.trimStart().length <= indent) break;
      more.push(line);
    }
    if (/^\|[-+]?$/.test(rest)) {
      while (more.length > 0 && more[more.length - 1]!.trim() === "") more.pop();
      const cut = Math.min(
        ...more.filter((line) => line.trim() !== "").map((line) => line.length - line.trimStart().length),
      );
      const body = more.map((line) => line.slice(cut)).join("\n");
      return rest === "|-" ? body : `${body}\n`;
    }
    if (rest.startsWith(">")) throw new Error(`yaml ${key} ${n}: folded blocks (>) are not read`);
    if (rest.startsWith("'") || rest.startsWith('"')) return quotedScalar([rest, ...more].join("\n"), key, n);
    return [rest, ...more.map((line) => line.trim())].filter((part) => part !== "").join(" ");
  }
  throw new Error(`yaml ${key} ${n}: the file has ${seen} values of ${key}:`);
}

/** A YAML quoted scalar at the start of `source` (its lines joined by \n): unescaped and unfolded. */
function quotedScalar(source: string, key: string, n: number): string {
  const quote = source[0]!;
  let out = "";
  let index = 1;
  while (index < source.length) {
    const char = source[index]!;
    if (quote === "'" && char === "'") {
      if (source[index + 1] === "'") {
        out += "'";
        index += 2;
        continue;
      }
      return out;
    }
    if (quote === '"' && char === '"') return out;
    if (quote === '"' && char === "\\") {
      const next = source[index + 1] ?? "";
      if (next === "\n") {
        // An escaped line break: the lines join with nothing between them.
        index += 2;
        while (source[index] === " " || source[index] === "\t") index++;
        continue;
      }
      const simple: Record<string, string> = {
        n: "\n",
        t: "\t",
        r: "\r",
        '"': '"',
        "\\": "\\",
        "/": "/",
        "0": "\0",
        " ": " ",
        e: "\u001b",
      };
      if (next in simple) {
        out += simple[next];
        index += 2;
        continue;
      }
      const width = { x: 2, u: 4, U: 8 }[next];
      if (width) {
        out += String.fromCodePoint(Number.parseInt(source.slice(index + 2, index + 2 + width), 16));
        index += 2 + width;
        continue;
      }
      throw new Error(`yaml ${key} ${n}: unknown escape \\${next}`);
    }
    if (char === "\n") {
      // Folding: a line break and the next line's indentation are one space; each empty line a \n.
      out = out.replace(/[ \t]+$/, "");
      let breaks = 0;
      while (index < source.length && /[\n \t]/.test(source[index]!)) {
        if (source[index] === "\n") breaks++;
        index++;
      }
      out += breaks > 1 ? "\n".repeat(breaks - 1) : " ";
      continue;
    }
    out += char;
    index++;
  }
  throw new Error(`yaml ${key} ${n}: the quoted scalar does not end`);
}

function locate(text: string, at: string): string {
  let current = text;
  for (const step of at.split(" | ")) {
    const [kind, ...args] = step.trim().split(" ");
    if (kind === "json") current = asText(pointer(JSON.parse(current), args[0] ?? ""), step);
    else if (kind === "jsonl") {
      const line = current.split("\n").filter((entry) => entry.trim() !== "")[Number(args[0])];
      if (line === undefined) throw new Error(`${step}: no such line`);
      current = asText(pointer(JSON.parse(line), args[1] ?? ""), step);
    } else if (kind === "yaml") current = yamlScalar(current, args[0]!, Number(args[1] ?? 0));
    else if (kind === "after") {
      const marker = JSON.parse(args.slice(1).join(" ")) as string;
      let at = -1;
      for (let seen = 0; seen <= Number(args[0]); seen++) {
        at = current.indexOf(marker, at + 1);
        if (at < 0) throw new Error(`${step}: the text has ${seen} of those`);
      }
      current = current.slice(at + marker.length);
    } else if (kind === "through") {
      const marker = JSON.parse(args.join(" ")) as string;
      const at = current.indexOf(marker);
      if (at < 0) throw new Error(`${step}: not found`);
      current = current.slice(0, at + marker.length);
    } else throw new Error(`unknown locator step ${JSON.stringify(step)}`);
  }
  return current;
}

// ---------------------------------------------------------------------------------------------------
// Running the parsers

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

type Verdict = "right" | "wrong value" | "error";

/**
 * Whether `got` is the expected value. An expected string `start…end` stands for a long recorded sentence
 * not copied into the manifest: it matches a string that starts with `start` and ends with `end`.
 */
function matches(expected: unknown, got: unknown): boolean {
  if (typeof expected === "string" && expected.includes("…") && typeof got === "string") {
    const [start = "", end = ""] = expected.split("…");
    return got.length >= start.length + end.length && got.startsWith(start) && got.endsWith(end);
  }
  if (Array.isArray(expected))
    return (
      Array.isArray(got) &&
      got.length === expected.length &&
      expected.every((item, index) => matches(item, got[index]))
    );
  if (expected !== null && typeof expected === "object") {
    if (got === null || typeof got !== "object" || Array.isArray(got)) return false;
    const keys = Object.keys(expected);
    const gotKeys = Object.keys(got);
    return (
      keys.length === gotKeys.length &&
      keys.every((key) =>
        matches((expected as Record<string, unknown>)[key], (got as Record<string, unknown>)[key]),
      )
    );
  }
  return expected === got;
}

function verdict(entry: RealCase, outcome: Outcome): Verdict {
  if (entry.expected === "error") return outcome.ok ? "wrong value" : "right";
  if (!outcome.ok) return "error";
  return matches(entry.expected.value, outcome.value) ? "right" : "wrong value";
}

type Parse = (type: string, text: string) => Outcome;

/**
 * Sapling's final parse and its stream parser (fed 13-character chunks, an arbitrary width that cuts
 * tokens, then finished), loaded from the checkout at `root`: this one, or another given with `--also`
 * to compare two versions in one run.
 */
async function saplingRunner(root: string, declarations: string, types: string[]) {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href);
  const [{ compileSchema }, { evaluateConstraint }, sap] = (await Promise.all([
    load("src/parse-with-schema.ts"),
    load("src/prompt/index.ts"),
    load("src/sap/index.ts"),
  ])) as [typeof SchemaModule, typeof PromptModule, typeof SapModule];
  const options = { constraintEvaluator: evaluateConstraint };
  const compiled = new Map(types.map((type) => [type, compileSchema(declarations, type)]));
  const attempt = (run: () => unknown): Outcome => {
    try {
      return { ok: true, value: run() };
    } catch (error) {
      if (sap.SapParseError.isInstance(error)) return { ok: false, error: `${error.code} ${error.path}` };
      throw error;
    }
  };
  const final: Parse = (type, text) => {
    const { ir, type: target } = compiled.get(type)!;
    return attempt(() => sap.parseValue(text, target, ir, options).value);
  };
  const stream: Parse = (type, text) => {
    const { ir, type: target } = compiled.get(type)!;
    return attempt(() => {
      const parser = sap.createStreamParser(target, ir, options);
      for (let at = 0; at < text.length; at += 13) parser.push(text.slice(at, at + 13));
      return parser.finish().value;
    });
  };
  return { final, stream };
}

async function bamlRunner(declarations: string, types: string[]): Promise<Parse> {
  const names = new Map(types.map((type, index) => [type, `RealOutput${index}`]));
  const parse = bamlFinalParser(await loadBaml(), bamlTargets(declarations, names));
  return (type, text) => parse(names.get(type)!, text);
}

function gitShow(mirrors: string, repo: string, commit: string, file: string): string | undefined {
  const gitDir = join(mirrors, repo.replace("/", "+"), "repo");
  if (!existsSync(gitDir)) return undefined;
  return execFileSync("git", ["--git-dir", gitDir, "show", `${commit}:${file}`], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const mirrorsFlag = argv.indexOf("--mirrors");
  const mirrors =
    (mirrorsFlag >= 0 ? argv[mirrorsFlag + 1] : undefined) ??
    process.env.REAL_OUTPUTS_MIRRORS ??
    "/work/.mirror";
  const only = argv.find((arg) => arg.startsWith("--case="))?.slice("--case=".length);
  const declarations = readFileSync(join(FOLDER, "declarations.baml"), "utf8");
  const all = readManifest(readFileSync(join(FOLDER, "manifest.txt"), "utf8"));
  const cases = only ? all.filter((entry) => entry.name === only) : all;
  const types = [...new Set(cases.map((entry) => entry.type))];
  const readers: [string, Parse][] = [];
  const here = await saplingRunner(join(import.meta.dirname, ".."), declarations, types);
  readers.push(["Sapling", here.final], ["Sapling stream", here.stream]);
  const alsoFlag = argv.indexOf("--also");
  if (alsoFlag >= 0) {
    const root = argv[alsoFlag + 1]!;
    const other = await saplingRunner(root, declarations, types);
    readers.push([`Sapling at ${root}`, other.final], [`Sapling stream at ${root}`, other.stream]);
  }
  readers.push(["BAML 0.226.2", await bamlRunner(declarations, types)]);
  const tools = readers.map(([name]) => name);
  const files = new Map<string, string | undefined>();
  const missing = new Map<string, number>();
  const counts = new Map<string, Record<Verdict, number>>();
  const count = (key: string, result: Verdict) => {
    const row = counts.get(key) ?? { right: 0, "wrong value": 0, error: 0 };
    row[result]++;
    counts.set(key, row);
  };
  const report: string[] = [];
  const show = (outcome: Outcome) => (outcome.ok ? JSON.stringify(outcome.value) : outcome.error);
  const width = only ? 6000 : 200;
  let read = 0;
  for (const entry of cases) {
    const fileKey = `${entry.repo}@${entry.commit}:${entry.file}`;
    if (!files.has(fileKey)) files.set(fileKey, gitShow(mirrors, entry.repo, entry.commit, entry.file));
    const file = files.get(fileKey);
    if (file === undefined) {
      missing.set(entry.repo, (missing.get(entry.repo) ?? 0) + 1);
      continue;
    }
    let text: string;
    try {
      text = locate(file, entry.at);
    } catch (error) {
      throw new Error(`manifest:${entry.line}: ${entry.name}: ${(error as Error).message}`);
    }
    read++;
    const outcomes = readers.map(([, parse]) => parse(entry.type, text));
    const lines: string[] = [];
    tools.forEach((tool, index) => {
      const result = verdict(entry, outcomes[index]!);
      count(tool, result);
      count(`${tool} ${entry.repo}`, result);
      if (result !== "right") lines.push(`    ${tool}: ${result}: ${show(outcomes[index]!).slice(0, width)}`);
    });
    if (lines.length > 0 || only) {
      const expected = entry.expected === "error" ? "error" : JSON.stringify(entry.expected.value);
      report.push(
        `${entry.name} [${entry.type}] (manifest:${entry.line})\n    answer: ${JSON.stringify(text).slice(0, only ? 4000 : 240)}\n    expected: ${expected.slice(0, 200)}\n${lines.join("\n")}`,
      );
    }
  }
  if (argv.includes("--list") || only) for (const line of report) console.log(line);
  for (const [repo, skipped] of missing)
    console.log(`skipped ${skipped} cases: no snapshot of ${repo} under ${mirrors} (fetch github:${repo})`);
  const expectErrors = cases.filter((entry) => entry.expected === "error").length;
  console.log(`${read} recorded answers read (${expectErrors} of them expected to fail)\n`);
  console.log("| reader | right | returned a wrong value | failed with an error |");
  console.log("|---|---:|---:|---:|");
  const cell = (key: string) => {
    const row = counts.get(key) ?? { right: 0, "wrong value": 0, error: 0 };
    return [row.right, row["wrong value"], row.error];
  };
  for (const tool of tools) console.log(`| ${tool} | ${cell(tool).join(" | ")} |`);
  console.log(`\nPer source (right / wrong value / error):\n`);
  console.log(`| source | cases | ${tools.join(" | ")} |`);
  console.log(`|---|---:|${tools.map(() => "---:").join("|")}|`);
  for (const repo of [...new Set(cases.map((entry) => entry.repo))].sort()) {
    const total = cell(`${tools[0]} ${repo}`).reduce((sum, value) => sum + value, 0);
    if (total > 0)
      console.log(
        `| ${repo} | ${total} | ${tools.map((tool) => cell(`${tool} ${repo}`).join(" / ")).join(" | ")} |`,
      );
  }
}

await main();
