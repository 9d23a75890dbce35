import type { TestCaseResult, TestStatus } from "./run-test-case.js";
import { seconds } from "./test-progress.js";

const SHOWN: Record<TestStatus, string> = {
  passed: "PASS",
  failed: "FAIL",
  error: "ERROR",
  cancelled: "CANCEL",
};

/**
 * The table printed after a run: one row per case (function, test, status, time, and the failed
 * constraints or the error), then a count line.
 */
export function renderSummaryTable(results: readonly TestCaseResult[], totalMs: number): string {
  const rows = results.map((result) => [
    result.testCase.fn.name,
    result.testCase.test.name,
    SHOWN[result.status],
    seconds(result.durationMs),
    detail(result),
  ]);
  const header = ["Function", "Test", "Status", "Time", "Detail"];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((width) => "─".repeat(width)).join("  ");
  return [line(header), rule, ...rows.map(line), "", countLine(results, totalMs), ""].join("\n");
}

function detail(result: TestCaseResult): string {
  if (result.status === "passed") {
    const checks = result.constraints.length;
    return checks === 0 ? "" : `${checks} constraint${checks === 1 ? "" : "s"} held`;
  }
  const reason = result.reason ?? "";
  return reason.length > 100 ? `${reason.slice(0, 99)}…` : reason;
}

/** `5 tests: 3 passed, 1 failed, 1 error (2.3s)`. */
export function countLine(results: readonly TestCaseResult[], totalMs: number): string {
  const count = (status: TestStatus) => results.filter((result) => result.status === status).length;
  const parts = [`${count("passed")} passed`];
  if (count("failed") > 0) parts.push(`${count("failed")} failed`);
  if (count("error") > 0) parts.push(`${count("error")} error${count("error") === 1 ? "" : "s"}`);
  if (count("cancelled") > 0) parts.push(`${count("cancelled")} cancelled`);
  const total = results.length;
  return `${total} test${total === 1 ? "" : "s"}: ${parts.join(", ")} (${seconds(totalMs)})`;
}
