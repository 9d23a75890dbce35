/**
 * The HTML report of an eval: one self-contained page (no script, no network) with bar charts per cell,
 * accuracy per field, and the rows that failed with their raw answers, each repair marked on the text
 * the way the `sapling dev` parse explorer marks it.
 */

import type { CellSummary } from "./cell-summary.js";
import { answerText, type EvalRecord } from "./eval-record.js";
import type { EvalReport } from "./eval-report.js";
import type { FieldScore } from "./score-value.js";

/** A row that was not right in a cell, as the report shows it. */
export interface EvalFailure {
  cell: string;
  record: EvalRecord;
  expected: unknown;
  fields: FieldScore[];
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

interface Chart {
  title: string;
  /** The figure of a cell, and its label. */
  value: (cell: CellSummary) => number | null;
  label: (value: number) => string;
  /** Bars are scaled to this (1 for rates; the largest value otherwise). */
  scale: "rate" | "largest";
  tone: "good" | "bad" | "neutral";
}

const charts: Chart[] = [
  { title: "Row accuracy", value: (cell) => cell.rowAccuracy, label: percent, scale: "rate", tone: "good" },
  {
    title: "Field accuracy",
    value: (cell) => cell.fieldAccuracy,
    label: percent,
    scale: "rate",
    tone: "good",
  },
  {
    title: "JSON.parse + validation accuracy",
    value: (cell) => cell.strict.rowAccuracy,
    label: percent,
    scale: "rate",
    tone: "neutral",
  },
  {
    title: "Fence strip + jsonrepair accuracy",
    value: (cell) => cell.repaired?.rowAccuracy ?? null,
    label: percent,
    scale: "rate",
    tone: "neutral",
  },
  {
    title: "First-call parse failures",
    value: (cell) => cell.firstCallParseFailureRate,
    label: percent,
    scale: "rate",
    tone: "bad",
  },
  {
    title: "Final failures",
    value: (cell) => cell.finalFailureRate,
    label: percent,
    scale: "rate",
    tone: "bad",
  },
  {
    title: "Schema tokens",
    value: (cell) => cell.meanSchemaTokens,
    label: (value) => String(Math.round(value)),
    scale: "largest",
    tone: "neutral",
  },
  {
    title: "Input tokens (mean)",
    value: (cell) => cell.meanInputTokens,
    label: (value) => String(Math.round(value)),
    scale: "largest",
    tone: "neutral",
  },
  {
    title: "Latency p50",
    value: (cell) => cell.latencyP50Ms,
    label: (value) => `${Math.round(value)} ms`,
    scale: "largest",
    tone: "neutral",
  },
  {
    title: "Latency p95",
    value: (cell) => cell.latencyP95Ms,
    label: (value) => `${Math.round(value)} ms`,
    scale: "largest",
    tone: "neutral",
  },
];

function chart(definition: Chart, cells: readonly CellSummary[]): string {
  const values = cells.map(definition.value);
  const largest = Math.max(0, ...values.filter((value): value is number => value !== null));
  const bars = cells
    .map((cell, at) => {
      const value = values[at] ?? null;
      const width =
        value === null
          ? 0
          : definition.scale === "rate"
            ? value * 100
            : largest === 0
              ? 0
              : (value / largest) * 100;
      return `<div class="bar-row"><span class="bar-name">${escapeHtml(cell.cell)}</span><span class="bar-track"><span class="bar ${definition.tone}" style="width:${width.toFixed(1)}%"></span></span><span class="bar-value">${value === null ? "n/a" : escapeHtml(definition.label(value))}</span></div>`;
    })
    .join("");
  return `<section class="chart"><h3>${escapeHtml(definition.title)}</h3>${bars}</section>`;
}

/** The raw answer with each repair's span marked (`<mark title="kind at path">`). */
function markedAnswer(record: EvalRecord): string {
  const text = answerText(record);
  if (text === null) return '<p class="muted">No answer arrived.</p>';
  const spans = record.repairs
    .filter((repair) => repair.span !== undefined && repair.span.end > repair.span.start)
    .map((repair) => ({
      ...(repair.span as { start: number; end: number }),
      label: `${repair.kind} at ${repair.path}`,
    }))
    .sort((left, right) => left.start - right.start);
  let html = "";
  let at = 0;
  for (const span of spans) {
    if (span.start < at) continue; // overlapping marks: the first one is shown
    html += escapeHtml(text.slice(at, span.start));
    html += `<mark class="repair" title="${escapeHtml(span.label)}">${escapeHtml(text.slice(span.start, span.end))}</mark>`;
    at = span.end;
  }
  html += escapeHtml(text.slice(at));
  return `<pre class="answer">${html}</pre>`;
}

function failure(item: EvalFailure): string {
  const { record } = item;
  const wrong = item.fields
    .filter((field) => field.credit < 1)
    .map((field) => `${field.field} (${percent(field.credit)})`);
  const repairs = record.repairs
    .map(
      (repair) =>
        `<li><code>${escapeHtml(repair.kind)}</code> at <code>${escapeHtml(repair.path)}</code></li>`,
    )
    .join("");
  return `<details class="failure"><summary><code>${escapeHtml(item.cell)}</code> row <code>${escapeHtml(record.id)}</code>: ${
    record.ok
      ? `wrong fields: ${escapeHtml(wrong.join(", "))}`
      : `<span class="error">${escapeHtml(record.error?.type ?? "Error")}</span>`
  }</summary>${record.ok ? "" : `<p class="error">${escapeHtml(record.error?.message ?? "")}</p>`}<div class="columns"><div><h4>Raw answer, repairs marked</h4>${markedAnswer(record)}${
    repairs === "" ? "" : `<ul class="repairs">${repairs}</ul>`
  }</div><div><h4>Value</h4><pre>${escapeHtml(record.ok ? JSON.stringify(record.value, null, 2) : "(none)")}</pre><h4>Expected</h4><pre>${escapeHtml(JSON.stringify(item.expected, null, 2))}</pre></div></div></details>`;
}

const style = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2330;background:#fafbfc}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}h3{font-size:13px;margin:0 0 6px}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(400px,1fr));gap:14px}
.chart{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:10px 12px}
.bar-row{display:grid;grid-template-columns:205px 1fr 64px;gap:6px;align-items:center;font-size:12px;margin:3px 0}
.bar-name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.bar-track{background:#eef0f3;border-radius:3px;height:12px;position:relative}
.bar{position:absolute;left:0;top:0;bottom:0;border-radius:3px}
.bar.good{background:#2f9e6a}.bar.bad{background:#d0543d}.bar.neutral{background:#5b7bd5}
.bar-value{text-align:right;font-variant-numeric:tabular-nums}
table{border-collapse:collapse;background:#fff;font-size:12px}
th,td{border:1px solid #dde1e7;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
pre{background:#fff;border:1px solid #dde1e7;padding:8px;white-space:pre-wrap;word-break:break-word;max-height:360px;overflow:auto;font-size:12px}
mark.repair{background:#ffe9a8;border-bottom:2px solid #d9a400}
.failure{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:6px 10px;margin:6px 0}
.columns{display:grid;grid-template-columns:1fr 1fr;gap:12px}.error{color:#b0321f}.muted{color:#6b7280}
`;

/** The whole page. `failures` are shown as given (the caller bounds how many). */
export function renderEvalHtml(report: EvalReport, failures: readonly EvalFailure[]): string {
  const cells = report.cells;
  const fieldNames = cells[0]?.fields.map((field) => field.field) ?? [];
  const fieldRows = fieldNames
    .map(
      (name) =>
        `<tr><td><code>${escapeHtml(name)}</code></td>${cells
          .map(
            (cell) => `<td>${percent(cell.fields.find((field) => field.field === name)?.accuracy ?? 0)}</td>`,
          )
          .join("")}</tr>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sapling eval ${escapeHtml(report.function)}</title><style>${style}</style></head>
<body>
<h1>sapling eval ${escapeHtml(report.function)}: ${report.rows} rows × ${cells.length} cells</h1>
<div class="charts">${charts.map((definition) => chart(definition, cells)).join("")}</div>
<h2>Accuracy per field</h2>
<table><tr><th>field</th>${cells.map((cell) => `<th>${escapeHtml(cell.cell)}</th>`).join("")}</tr>${fieldRows}</table>
<h2>Rows that were not right (${failures.length} shown)</h2>
${failures.length === 0 ? '<p class="muted">Every row was right in every cell.</p>' : failures.map(failure).join("\n")}
<p class="muted">Baselines read the same recorded answers: JSON.parse + schema validation, and ${
    report.repairBaseline === null
      ? "fence strip + jsonrepair (unavailable: jsonrepair is not installed)"
      : `fence strip + ${escapeHtml(report.repairBaseline)}`
  } + schema validation.</p>
</body></html>
`;
}
