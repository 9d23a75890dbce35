import type { TestCaseResult } from "./run-test-case.js";

/**
 * JUnit XML for CI (GitHub Actions, GitLab, Jenkins): one `<testsuite>` per function, one `<testcase>` per
 * test; a failed constraint is a `<failure>`, an error of the function a `<error>`, a cancelled test
 * `<skipped>`. The value (or the raw model output) goes into `<system-out>` for the reader of the report.
 */
export function renderJunitReport(results: readonly TestCaseResult[], totalMs: number): string {
  const byFunction = new Map<string, TestCaseResult[]>();
  for (const result of results) {
    const name = result.testCase.fn.name;
    byFunction.set(name, [...(byFunction.get(name) ?? []), result]);
  }
  const count = (items: readonly TestCaseResult[], status: TestCaseResult["status"]) =>
    items.filter((item) => item.status === status).length;
  const suites = [...byFunction].map(([name, items]) => {
    const time = items.reduce((sum, item) => sum + item.durationMs, 0);
    const cases = items.map((item) => testCase(item)).join("\n");
    return (
      `  <testsuite name="${escapeXml(name)}" tests="${items.length}" failures="${count(items, "failed")}" ` +
      `errors="${count(items, "error")}" skipped="${count(items, "cancelled")}" time="${secondsText(time)}">\n` +
      `${cases}\n  </testsuite>`
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sapling test" tests="${results.length}" failures="${count(results, "failed")}" ` +
      `errors="${count(results, "error")}" skipped="${count(results, "cancelled")}" time="${secondsText(totalMs)}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

function testCase(result: TestCaseResult): string {
  const open = `    <testcase classname="${escapeXml(result.testCase.fn.name)}" name="${escapeXml(result.testCase.test.name)}" time="${secondsText(result.durationMs)}"`;
  const reason = escapeXml(result.reason ?? "");
  const inner: string[] = [];
  if (result.status === "failed") inner.push(`      <failure message="${reason}">${reason}</failure>`);
  if (result.status === "error") inner.push(`      <error message="${reason}">${reason}</error>`);
  if (result.status === "cancelled") inner.push(`      <skipped message="${reason}"/>`);
  const output =
    result.rawOutput ?? (result.value === undefined ? undefined : JSON.stringify(result.value, null, 2));
  if (output !== undefined) inner.push(`      <system-out>${escapeXml(output)}</system-out>`);
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join("\n")}\n    </testcase>`;
}

function secondsText(milliseconds: number): string {
  return (milliseconds / 1000).toFixed(3);
}

/** XML text and attribute escaping; characters XML 1.0 forbids are dropped. */
function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}
