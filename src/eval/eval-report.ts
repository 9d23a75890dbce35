/**
 * The report of an eval, and its text forms: the terminal table, Markdown and JSON. Every figure comes
 * from the records (latencies included), so a replay of the same records prints the same bytes.
 */
import { formatCost } from "../runtime/index.js";
import type { CellSummary } from "./cell-summary.js";

export interface EvalReport {
  function: string;
  /** Dataset rows per cell. */
  rows: number;
  cells: CellSummary[];
  /** The repair baseline's name and version, or `null` when it was not available. */
  repairBaseline: string | null;
}

interface Column {
  title: string;
  value: (cell: CellSummary, report: EvalReport) => string;
}

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;
const whole = (count: number | null): string => (count === null ? "n/a" : String(Math.round(count)));
const milliseconds = (value: number | null): string => (value === null ? "n/a" : `${Math.round(value)} ms`);

const columns: Column[] = [
  { title: "client", value: (cell) => cell.client },
  { title: "mode", value: (cell) => cell.mode },
  { title: "schema tok", value: (cell) => whole(cell.meanSchemaTokens) },
  { title: "1st-call parse fail", value: (cell) => percent(cell.firstCallParseFailureRate) },
  { title: "final fail", value: (cell) => percent(cell.finalFailureRate) },
  { title: "row acc", value: (cell) => percent(cell.rowAccuracy) },
  { title: "field acc", value: (cell) => percent(cell.fieldAccuracy) },
  { title: "JSON.parse acc", value: (cell) => percent(cell.strict.rowAccuracy) },
  {
    title: "jsonrepair acc",
    value: (cell) => (cell.repaired === null ? "unavailable" : percent(cell.repaired.rowAccuracy)),
  },
  {
    title: "tokens in/out",
    value: (cell) => `${whole(cell.meanInputTokens)}/${whole(cell.meanOutputTokens)}`,
  },
  { title: "p50", value: (cell) => milliseconds(cell.latencyP50Ms) },
  { title: "p95", value: (cell) => milliseconds(cell.latencyP95Ms) },
  { title: "cost", value: (cell) => formatCost(cell.costUsd) },
];

function grid(report: EvalReport): { header: string[]; rows: string[][] } {
  return {
    header: columns.map((column) => column.title),
    rows: report.cells.map((cell) => columns.map((column) => column.value(cell, report))),
  };
}

/** Accuracy per field: one line per cell, one column per field (fields are fewer than cells, usually). */
function fieldGrid(report: EvalReport): { header: string[]; rows: string[][] } {
  const names = report.cells[0]?.fields.map((field) => field.field) ?? [];
  return {
    header: ["client", "mode", ...names],
    rows: report.cells.map((cell) => [
      cell.client,
      cell.mode,
      ...names.map((name) => percent(cell.fields.find((field) => field.field === name)?.accuracy ?? 0)),
    ]),
  };
}

function aligned(table: { header: string[]; rows: string[][] }): string {
  const widths = table.header.map((title, column) =>
    Math.max([...title].length, ...table.rows.map((row) => [...(row[column] ?? "")].length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column < 2 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number),
      )
      .join("  ")
      .trimEnd();
  return [
    line(table.header),
    widths.map((width) => "─".repeat(width)).join("  "),
    ...table.rows.map(line),
  ].join("\n");
}

/** The terminal table: one line per cell, then accuracy per field, then notes. */
export function renderEvalTable(report: EvalReport): string {
  const fieldTable = fieldGrid(report);
  return [
    `sapling eval ${report.function}: ${report.rows} rows × ${report.cells.length} cells`,
    "",
    aligned(grid(report)),
    "",
    "Field accuracy (mean credit, partial credit counted):",
    aligned({ header: fieldTable.header, rows: fieldTable.rows }),
    "",
    notes(report),
    "",
  ].join("\n");
}

function notes(report: EvalReport): string {
  return [
    "JSON.parse acc: the same answers through JSON.parse + schema validation, no repair.",
    report.repairBaseline === null
      ? "jsonrepair acc: unavailable (the optional package jsonrepair is not installed)."
      : `jsonrepair acc: the same answers through fence strip + ${report.repairBaseline} + schema validation.`,
  ].join("\n");
}

/** The report as a Markdown table (for a pull request or docs). */
export function renderEvalMarkdown(report: EvalReport): string {
  const table = (content: { header: string[]; rows: string[][] }) =>
    [
      `| ${content.header.join(" | ")} |`,
      `|${content.header.map((_, column) => (column < 2 ? "---" : "---:")).join("|")}|`,
      ...content.rows.map((row) => `| ${row.map((cell) => cell.replace(/\|/g, "\\|")).join(" | ")} |`),
    ].join("\n");
  const fieldTable = fieldGrid(report);
  return [
    `### sapling eval ${report.function}: ${report.rows} rows × ${report.cells.length} cells`,
    "",
    table(grid(report)),
    "",
    "Field accuracy (mean credit, partial credit counted):",
    "",
    table(fieldTable),
    "",
    notes(report),
    "",
  ].join("\n");
}

/** The report as JSON (numbers unrounded). */
export function renderEvalJson(report: EvalReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
