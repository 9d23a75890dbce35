/**
 * The SAP conformance table format (`test/fixtures/sap/*.cases`), read and written.
 *
 * ```
 * # Comment lines at the top describe the file.
 *
 * === a readable case name
 * schema: resume                      (test/fixtures/sap/schemas/resume.baml; or a `--- baml` block)
 * type: CandidateEvaluation           (any BAML type expression)
 * value: {"a": 1}                     (the expected value as JSON; or a `--- value` block)
 * error: missing-field $.age          (instead of value: the expected SapParseError code and path)
 * flags: StringToInt $.age; FromFence $   (every flag expected, `kind path`, `; `-separated, or `none`;
 *                                           a long list is written `Kind ×N`: exactly N flags of that kind)
 * raw: {"a": 1}                       (one line; or a `--- raw` block for several lines)
 * ```
 *
 * Headers come first; then the blocks `--- baml`, `--- value`, `--- raw`. A `--- raw` block runs to the
 * next `=== ` line, so the raw text may contain anything else; `baml` and `value` blocks also end at a
 * header line.
 *
 * Optional headers: `partial: true` (prefix mode), `raw-json: "…"` (raw text as a JSON string, for
 * text with significant trailing spaces), `raw-file: large/x.txt` and `value-file: large/x.json` (large
 * answers kept beside the table). `UPDATE_EXPECT=1` rewrites value/error/flags from the parser's
 * output in canonical form; review the diff before committing.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Ir } from "../src/ir/index.js";
import { compile } from "../src/language/index.js";

export interface SapCase {
  name: string;
  schema?: string;
  baml?: string;
  type: string;
  raw: string;
  partial: boolean;
  value?: unknown;
  hasValue: boolean;
  error?: { code: string; path: string };
  flags?: string[];
  /** Raw text kept in a file beside the table (large answers), relative to test/fixtures/sap. */
  rawFile?: string;
  /** Expected value kept in a JSON file beside the table (large answers). */
  valueFile?: string;
  /** 1-based line of the `===` header, for failure messages. */
  line: number;
}

export interface SapCaseFile {
  /** The comment block at the top, kept when rewriting. */
  preamble: string;
  cases: SapCase[];
}

const SECTION = /^--- (raw|value|baml)$/;

export function readCaseFile(text: string, file: string): SapCaseFile {
  const lines = text.split("\n");
  let index = 0;
  const preambleLines: string[] = [];
  while (index < lines.length && !lines[index]!.startsWith("=== ")) preambleLines.push(lines[index++]!);
  const cases: SapCase[] = [];
  while (index < lines.length) {
    const header = lines[index]!;
    if (!header.startsWith("=== ")) {
      if (header.trim() !== "")
        throw new Error(`${file}:${index + 1}: expected "=== case name", found ${JSON.stringify(header)}`);
      index++;
      continue;
    }
    const current: Partial<SapCase> & { name: string; line: number } = {
      name: header.slice(4).trim(),
      line: index + 1,
      partial: false,
      hasValue: false,
    };
    index++;
    while (index < lines.length && !lines[index]!.startsWith("=== ")) {
      const line = lines[index]!;
      const section = SECTION.exec(line);
      if (section) {
        index++;
        const body: string[] = [];
        const isHeader = (line: string) =>
          section[1] !== "raw" && /^(raw|raw-json|raw-file|flags|error|type|schema): /.test(line);
        while (
          index < lines.length &&
          !lines[index]!.startsWith("=== ") &&
          !SECTION.test(lines[index]!) &&
          !isHeader(lines[index]!)
        ) {
          body.push(lines[index++]!);
        }
        while (body.length > 0 && body[body.length - 1] === "") body.pop();
        const content = body.join("\n");
        if (section[1] === "raw") current.raw = content;
        else if (section[1] === "baml") current.baml = content;
        else {
          current.value = JSON.parse(content);
          current.hasValue = true;
        }
        continue;
      }
      index++;
      if (line.trim() === "") continue;
      const colon = line.indexOf(": ");
      const key = colon < 0 ? line.replace(/:$/, "") : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 2);
      switch (key) {
        case "schema":
          current.schema = value.trim();
          break;
        case "type":
          current.type = value.trim();
          break;
        case "raw":
          current.raw = value;
          break;
        case "raw-file":
          current.rawFile = value.trim();
          current.raw = "";
          break;
        case "value-file":
          current.valueFile = value.trim();
          current.hasValue = true;
          break;
        case "raw-json":
          current.raw = JSON.parse(value) as string;
          break;
        case "partial":
          current.partial = value.trim() === "true";
          break;
        case "value":
          current.value = JSON.parse(value);
          current.hasValue = true;
          break;
        case "error": {
          const [code, path] = value.trim().split(/\s+/);
          current.error = { code: code!, path: path ?? "$" };
          break;
        }
        case "flags":
          current.flags =
            value.trim() === "none"
              ? []
              : value
                  .split(";")
                  .map((flag) => flag.trim())
                  .filter(Boolean);
          break;
        default:
          throw new Error(`${file}:${index}: unknown header ${JSON.stringify(key)}`);
      }
    }
    if (current.type === undefined || current.raw === undefined) {
      throw new Error(`${file}:${current.line}: case "${current.name}" needs a type and a raw text`);
    }
    cases.push(current as SapCase);
  }
  return { preamble: preambleLines.join("\n").trimEnd(), cases };
}

/** Canonical text of a case file (what UPDATE_EXPECT=1 writes). */
export function writeCaseFile(file: SapCaseFile): string {
  const blocks = file.cases.map((entry) => {
    const lines = [`=== ${entry.name}`];
    if (entry.schema !== undefined) lines.push(`schema: ${entry.schema}`);
    lines.push(`type: ${entry.type}`);
    if (entry.partial) lines.push("partial: true");
    let valueBlock: string | undefined;
    if (entry.error) {
      lines.push(`error: ${entry.error.code} ${entry.error.path}`);
    } else if (entry.hasValue && entry.valueFile === undefined) {
      const compact = JSON.stringify(entry.value);
      if (compact.length <= 100) lines.push(`value: ${compact}`);
      else valueBlock = JSON.stringify(entry.value, null, 2);
    }
    if (entry.valueFile !== undefined) lines.push(`value-file: ${entry.valueFile}`);
    if (entry.flags !== undefined) {
      const flags = entry.flags.length > LONG_FLAG_LIST ? summarizeFlags(entry.flags) : entry.flags;
      lines.push(`flags: ${flags.length > 0 ? flags.join("; ") : "none"}`);
    }
    if (entry.rawFile !== undefined) {
      lines.push(`raw-file: ${entry.rawFile}`);
      if (valueBlock !== undefined) lines.push("--- value", valueBlock);
      return lines.join("\n");
    }
    const multiline = entry.raw.includes("\n");
    const rawNeedsJson =
      entry.raw === "" ||
      entry.raw.endsWith("\n") ||
      INVISIBLE.test(entry.raw) ||
      (!multiline && entry.raw !== entry.raw.trim()) ||
      entry.raw.split("\n").some((line) => SECTION.test(line) || line.startsWith("=== "));
    if (rawNeedsJson) lines.push(`raw-json: ${visibleJson(entry.raw)}`);
    else if (!multiline) lines.push(`raw: ${entry.raw}`);
    if (entry.baml !== undefined) lines.push("--- baml", entry.baml);
    if (valueBlock !== undefined) lines.push("--- value", valueBlock);
    if (!rawNeedsJson && multiline) lines.push("--- raw", entry.raw);
    return lines.join("\n");
  });
  return `${file.preamble}\n\n${blocks.join("\n\n")}\n`;
}

/** Characters a reader cannot see: byte-order mark, non-breaking and zero-width spaces, line separators. */
const INVISIBLE = /[\u00a0\u200b-\u200f\u2028\u2029\ufeff]/;

/** JSON text with invisible characters escaped. */
function visibleJson(text: string): string {
  return JSON.stringify(text).replace(
    new RegExp(INVISIBLE.source, "g"),
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Flag lists longer than this are written as counts per kind. */
const LONG_FLAG_LIST = 12;

/**
 * `Kind path` entries as counts per kind (`Kind ×N`), keeping `Kind path` for kinds that occur once: the
 * readable form of a large answer's hundreds of flags, still exact about how many of each.
 */
export function summarizeFlags(flags: readonly string[]): string[] {
  const byKind = new Map<string, string[]>();
  for (const flag of flags) {
    const kind = flag.split(" ")[0]!;
    byKind.set(kind, [...(byKind.get(kind) ?? []), flag]);
  }
  return [...byKind.entries()]
    .flatMap(([kind, entries]) => (entries.length === 1 ? entries : [`${kind} ×${entries.length}`]))
    .sort();
}

const schemaCache = new Map<string, Ir>();

/** The IR of a case's schema (its `--- baml` block, else `schemas/<schema>.baml` under `folder`), cached. */
export function irForCase(entry: SapCase, folder: string): Ir {
  const source =
    entry.baml ?? readFileSync(join(folder, "schemas", `${entry.schema ?? "common"}.baml`), "utf8");
  const cached = schemaCache.get(source);
  if (cached) return cached;
  const { ir, diagnostics } = compile({ "schema.baml": source });
  if (!ir) throw new Error(`schema does not compile: ${diagnostics.map((d) => d.message).join("; ")}`);
  schemaCache.set(source, ir);
  return ir;
}
