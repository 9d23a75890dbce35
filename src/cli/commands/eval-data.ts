import type { LlmFunction, Type } from "../../ir/index.js";
import { CliError } from "../cli-context.js";
import { jsonLines } from "../json-lines.js";

/** One dataset row: an id, the function's arguments, and the value the function should return. */
export interface EvalRow {
  id: string;
  args: Record<string, unknown>;
  expected: unknown;
}

/**
 * Reads `sapling eval --data`: JSON lines (`{"id"?, "args": {…}, "expected": …}`) or, for a `.csv` file,
 * a header row naming the function's parameters, `expected` (JSON) and optionally `id`. Every mistake
 * names the line and how to fix it, before any model is called.
 */
export function readEvalRows(text: string, source: string, fn: LlmFunction): EvalRow[] {
  const rows = source.toLowerCase().endsWith(".csv")
    ? readCsvRows(text, source, fn)
    : readJsonRows(text, source, fn);
  if (rows.length === 0)
    throw new CliError(`${source}: no rows. Each row needs the arguments and "expected".`);
  const seen = new Map<string, string>();
  for (const row of rows) {
    const earlier = seen.get(row.id);
    if (earlier !== undefined)
      throw new CliError(
        `${source}: two rows have the id ${JSON.stringify(row.id)} (${earlier} and another); ids must be unique`,
      );
    seen.set(row.id, row.id);
  }
  return rows;
}

function readJsonRows(text: string, source: string, fn: LlmFunction): EvalRow[] {
  const rows: EvalRow[] = [];
  for (const { value: parsed, where, line } of jsonLines(text, source)) {
    if (!isRecord(parsed) || !isRecord(parsed.args))
      throw new CliError(
        `${where}: a row is {"args": {…${fn.name}'s arguments by name…}, "expected": …}, with an optional "id"`,
      );
    if (!("expected" in parsed))
      throw new CliError(
        `${where}: the row has no "expected": the value ${fn.name} should return for these args`,
      );
    const unknown = Object.keys(parsed).filter((key) => !["id", "args", "expected"].includes(key));
    if (unknown.length > 0)
      throw new CliError(
        `${where}: unknown key ${JSON.stringify(unknown[0])}; a row has "id", "args" and "expected"`,
      );
    rows.push({
      id: rowId(parsed.id, line, where),
      args: checkArgs(parsed.args, fn, where),
      expected: parsed.expected,
    });
  }
  return rows;
}

function readCsvRows(text: string, source: string, fn: LlmFunction): EvalRow[] {
  const records = parseCsv(text, source);
  const header = records.shift();
  if (!header) return [];
  const parameters = new Map(fn.params.map((parameter) => [parameter.name, parameter.type]));
  for (const column of header.cells)
    if (column !== "id" && column !== "expected" && !parameters.has(column))
      throw new CliError(
        `${source}:1: the column ${JSON.stringify(column)} is neither a parameter of ${fn.name} (${[...parameters.keys()].join(", ")}), "expected" nor "id"`,
      );
  if (!header.cells.includes("expected"))
    throw new CliError(`${source}:1: no "expected" column (the value ${fn.name} should return, as JSON)`);
  return records.map((record) => {
    const where = `${source}:${record.line}`;
    if (record.cells.length !== header.cells.length)
      throw new CliError(`${where}: ${record.cells.length} cells, but the header has ${header.cells.length}`);
    const args: Record<string, unknown> = {};
    let expected: unknown;
    let id: unknown;
    header.cells.forEach((column, at) => {
      const cell = record.cells[at] as string;
      if (column === "id") id = cell;
      else if (column === "expected") expected = parseJsonCell(cell, `${where} (expected)`);
      else
        args[column] = isStringType(parameters.get(column))
          ? cell
          : parseJsonCell(cell, `${where} (${column})`);
    });
    return { id: rowId(id, record.line - 1, where), args: checkArgs(args, fn, where), expected };
  });
}

function parseJsonCell(cell: string, where: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    throw new CliError(
      `${where}: not JSON: ${JSON.stringify(cell.slice(0, 60))}. Cells of non-string parameters and "expected" are JSON`,
    );
  }
}

function isStringType(type: Type | undefined): boolean {
  return type?.kind === "primitive" && type.name === "string";
}

function rowId(value: unknown, position: number, where: string): string {
  if (value === undefined || value === "") return String(position);
  if (typeof value === "string" || typeof value === "number") return String(value);
  throw new CliError(`${where}: "id" must be a string or a number, got ${JSON.stringify(value)}`);
}

function checkArgs(args: Record<string, unknown>, fn: LlmFunction, where: string): Record<string, unknown> {
  const names = new Set(fn.params.map((parameter) => parameter.name));
  for (const name of Object.keys(args))
    if (!names.has(name))
      throw new CliError(
        `${where}: ${fn.name} has no parameter ${JSON.stringify(name)}; its parameters: ${[...names].join(", ")}`,
      );
  for (const parameter of fn.params)
    if (!(parameter.name in args) && parameter.type.kind !== "optional")
      throw new CliError(`${where}: the argument ${JSON.stringify(parameter.name)} of ${fn.name} is missing`);
  return args;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** RFC 4180 records: quoted cells may hold commas, newlines and doubled quotes. */
function parseCsv(text: string, source: string): { line: number; cells: string[] }[] {
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let touched = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at] as string;
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        cell += '"';
        at += 1;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line += 1;
        cell += char;
      }
      continue;
    }
    if (char === '"' && cell === "") {
      quoted = true;
      touched = true;
    } else if (char === ",") {
      cells.push(cell);
      cell = "";
      touched = true;
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[at + 1] === "\n") at += 1;
      if (touched || cell !== "") records.push({ line: recordLine, cells: [...cells, cell] });
      cells = [];
      cell = "";
      touched = false;
      line += 1;
      recordLine = line;
    } else {
      cell += char;
      touched = true;
    }
  }
  if (quoted) throw new CliError(`${source}:${recordLine}: a quoted cell is never closed`);
  if (touched || cell !== "") records.push({ line: recordLine, cells: [...cells, cell] });
  return records;
}
